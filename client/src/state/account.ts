import { useAtomValue } from 'jotai';
import { atomWithQuery } from 'jotai-tanstack-query';
import type { AccountSummary } from '@shared/wallet/model';
import { getSummary } from '@client/api/account';
import { queryClient, queryKeys } from './query-client';
import { tokenAtom } from './session';

/**
 * The signed-in user's account summary as an atom over its query: loaded over REST while a
 * screen shows it, replaced by every `balance` event and read again after a reconnect (both in
 * query-bridge.ts). Trading screens compose it with the market (trade-mode.ts).
 */
const summaryQueryAtom = atomWithQuery(
  (get) => ({
    queryKey: queryKeys.summary,
    queryFn: () => getSummary(),
    enabled: get(tokenAtom) !== null,
  }),
  () => queryClient,
);

export type SummaryState =
  | { status: 'loading'; summary: AccountSummary | null }
  | { status: 'ready'; summary: AccountSummary }
  | { status: 'error'; summary: AccountSummary | null; error: unknown };

export function useAccountSummary(): SummaryState & { retry: () => void } {
  const query = useAtomValue(summaryQueryAtom);
  const retry = () => void query.refetch();
  const summary = query.data ?? null;
  if (query.status === 'error' && !query.isFetching) {
    return { status: 'error', summary, error: query.error, retry };
  }
  if (summary) return { status: 'ready', summary, retry };
  return { status: 'loading', summary, retry };
}
