import type { SavingsOverview, SavingsRecord, TestClockState } from '@shared/savings/model';
import type { Page } from '@shared/wallet/model';
import * as savings from '@shared/savings/routes';
import { call } from './client';

/** The savings figures of the logged-in user. */
export function getSavings(signal?: AbortSignal): Promise<SavingsOverview> {
  return call(savings.overview, {}, { signal });
}

/**
 * A transfer in (available → savings) or out. `idempotencyKey` stays the same when the same
 * transfer is sent again after a lost answer, so it is made once.
 */
export function transferSavings(
  direction: 'in' | 'out',
  amount: number,
  idempotencyKey: string,
): Promise<SavingsRecord> {
  const input = { body: { amount } };
  return direction === 'in'
    ? call(savings.transferIn, input, { idempotencyKey })
    : call(savings.transferOut, input, { idempotencyKey });
}

/** Transfers in and out and income, newest first. */
export function getSavingsRecords(
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<SavingsRecord>> {
  return call(savings.records, { query: { limit: 20, cursor: cursor ?? undefined } }, { signal });
}

/** The savings rules page (`savings-rules`) is a content page like any other. */
export { getContentPage } from './content';

/** Test clock (servers started with TEST_CLOCK=1 only): its time and the next cut-off. */
export function getTestClock(): Promise<TestClockState> {
  return call(savings.testClock, {});
}

export function advanceTestClock(advanceMs: number): Promise<TestClockState> {
  return call(savings.advanceTestClock, { body: { advanceMs } });
}
