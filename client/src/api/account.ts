import type { AccountSummary } from '@shared/wallet';
import { request } from './client';

/** The logged-in user's balances, P&L and badges. */
export function getSummary(signal?: AbortSignal): Promise<AccountSummary> {
  return request<AccountSummary>('/account/summary', { signal });
}
