import { useQuery } from '@tanstack/react-query';
import type { SavingsOverview } from '@shared/savings/model';
import { getSavings } from '@client/api/savings';
import { queryClient, queryKeys } from './query-client';
import { useToken } from './session';

export type SavingsState =
  | { status: 'loading'; overview: SavingsOverview | null }
  | { status: 'ready'; overview: SavingsOverview }
  | { status: 'error'; overview: SavingsOverview | null; error: unknown };

/**
 * The savings figures: loaded over REST, and again whenever the user's balances change (the
 * `balance` event follows every transfer and every cut-off that paid income), after a reconnect
 * (both in query-bridge.ts), and on `reload()`. The last figures stay on screen while new ones load.
 */
export function useSavings(): SavingsState & { reload: () => void } {
  const token = useToken();
  const query = useQuery(
    { queryKey: queryKeys.savings, queryFn: () => getSavings(), enabled: token !== null },
    queryClient,
  );
  const reload = () => void query.refetch();
  const overview = query.data ?? null;
  if (query.status === 'error' && !query.isFetching) {
    return { status: 'error', overview, error: query.error, reload };
  }
  if (overview) return { status: 'ready', overview, reload };
  return { status: 'loading', overview, reload };
}
