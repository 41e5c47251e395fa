import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Deposit, DepositStatus, Page } from '@shared/wallet/model';
import { compareIds } from './order-list';
import { queryClient, queryKeys } from './query-client';

/**
 * How live `deposit` events change the cached deposit lists (the deposit details page and the
 * USDT screen's incoming transfers share one cache). Pure, so the rules are tested apart from
 * React:
 * - a deposit already listed is replaced where it is; a new one (seen on chain, or a claim made
 *   in another tab) joins the loaded pages at its place, newest first by id;
 * - a deposit never goes back: credited, rejected or dropped beats under review, which beats
 *   confirming (a page read before the event cannot undo it, nor can a late copy of an event);
 * - one older than every loaded page is left for the page that will bring it.
 */

/** How far a deposit has come: seen on chain, waiting for an operator, decided. */
const stage: Record<DepositStatus, number> = {
  confirming: 0,
  pending: 1,
  approved: 2,
  rejected: 2,
  dropped: 2,
};

/** The later state of one deposit; at the same stage the event (newer by arrival) wins. */
export function newerDeposit(current: Deposit, incoming: Deposit): Deposit {
  return stage[incoming.status] >= stage[current.status] ? incoming : current;
}

/** The pages with `deposit` put in: replaced in place, or inserted where its id sorts. */
export function applyDepositToPages(
  pages: readonly Page<Deposit>[],
  deposit: Deposit,
): Page<Deposit>[] {
  const at = pages.findIndex((p) => p.items.some((d) => d.id === deposit.id));
  if (at >= 0)
    return pages.map((p, i) =>
      i !== at
        ? p
        : { ...p, items: p.items.map((d) => (d.id === deposit.id ? newerDeposit(d, deposit) : d)) },
    );
  // The first page whose last row is older than it takes it; past the end only if the end is
  // the list's end (otherwise a further page holds its place).
  let into = pages.findIndex((p) => {
    const last = p.items[p.items.length - 1];
    return last !== undefined && compareIds(deposit.id, last.id) > 0;
  });
  if (into < 0 && pages.length > 0 && pages[pages.length - 1]!.nextCursor === null)
    into = pages.length - 1;
  if (into < 0) return [...pages];
  return pages.map((p, i) => {
    if (i !== into) return p;
    const items = [...p.items];
    const before = items.findIndex((d) => compareIds(deposit.id, d.id) > 0);
    items.splice(before < 0 ? items.length : before, 0, deposit);
    return { ...p, items };
  });
}

/**
 * A `deposit` event into every cached deposit list. A list whose read is on its way may have
 * been read before the change: once that read is in, it is read again (the server sends the
 * event after its commit, so the new read has the change).
 */
export function applyDeposit(deposit: Deposit, client: QueryClient = queryClient): void {
  const cache = client.getQueryCache();
  for (const [key, data] of client.getQueriesData<InfiniteData<Page<Deposit>>>({
    queryKey: queryKeys.deposits,
  })) {
    if (data?.pages)
      client.setQueryData<InfiniteData<Page<Deposit>>>(key, {
        ...data,
        pages: applyDepositToPages(data.pages, deposit),
      });
    const query = cache.find({ queryKey: key, exact: true });
    if (query?.state.fetchStatus !== 'fetching') continue;
    const again = () => void client.invalidateQueries({ queryKey: key, exact: true });
    void query.promise?.then(again, again);
  }
}
