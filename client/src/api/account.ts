import type { AccountSummary } from '@shared/wallet/model';
import * as wallet from '@shared/wallet/routes';
import { call } from './client';

/** The logged-in user's balances, P&L and badges. */
export function getSummary(signal?: AbortSignal): Promise<AccountSummary> {
  return call(wallet.accountSummary, {}, { signal });
}

/** Sets the practice balance back to its default; 409 PRACTICE_ORDERS_OPEN while one is open. */
export function resetPractice(): Promise<{ practiceAvailable: number }> {
  return call(wallet.resetPractice, {});
}
