import type { AccountSummary } from '@shared/wallet';
import { request } from './client';

/** The logged-in user's balances, P&L and badges. */
export function getSummary(signal?: AbortSignal): Promise<AccountSummary> {
  return request<AccountSummary>('/account/summary', { signal });
}

/** Sets the practice balance back to its default; 409 PRACTICE_ORDERS_OPEN while one is open. */
export function resetPractice(): Promise<{ practiceAvailable: number }> {
  return request<{ practiceAvailable: number }>('/practice/reset', { method: 'POST', body: {} });
}
