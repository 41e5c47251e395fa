import type { SavingsOverview, SavingsRecord, TestClockState } from '@shared/savings';
import type { ContentPage } from '@shared/content';
import type { Page } from '@shared/wallet';
import { request } from './client';

/** The savings figures of the logged-in user. */
export function getSavings(signal?: AbortSignal): Promise<SavingsOverview> {
  return request<SavingsOverview>('/savings', { signal });
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
  return request<SavingsRecord>(`/savings/${direction}`, {
    method: 'POST',
    body: { amount },
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/** Transfers in and out and income, newest first. */
export function getSavingsRecords(
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<SavingsRecord>> {
  return request<Page<SavingsRecord>>('/savings/records', {
    query: { limit: 20, cursor },
    signal,
  });
}

/** A content page (`savings-rules`) in the given language; `lang` is the text's own. */
export function getContentPage(
  slug: string,
  lang: string,
  signal?: AbortSignal,
): Promise<ContentPage> {
  return request<ContentPage>(`/pages/${encodeURIComponent(slug)}`, { query: { lang }, signal });
}

/** Test clock (servers started with TEST_CLOCK=1 only): its time and the next cut-off. */
export function getTestClock(): Promise<TestClockState> {
  return request<TestClockState>('/test/clock');
}

export function advanceTestClock(advanceMs: number): Promise<TestClockState> {
  return request<TestClockState>('/test/clock', { method: 'POST', body: { advanceMs } });
}
