import type { TradeMode } from '@shared/orders/model';
import { loadOrderPage, orderListKey } from '@client/state';
import { usePagedQuery } from '@client/state/paged';

/**
 * How many orders of one mode are open, for a count beside that mode's money (issue 37: never a
 * practice count beside real money). It reads the same cached list as the Orders page's Open
 * tab, so `order` events keep it live; a count beyond the first page reads "20+". Null while
 * loading, failed, or none are open.
 */
export function useOpenTradeCount(mode: TradeMode): { n: number; text: string } | null {
  // Signed out (a logout resets the user's queries while this card is still on screen), the
  // list is not asked for: it would only meet a 401.
  const open = usePagedQuery(
    orderListKey(mode, 'positions'),
    (cursor) => loadOrderPage(mode, 'positions', cursor),
    { signedInOnly: true },
  );
  const n = open.items.length;
  if (open.status !== 'ready' || n === 0) return null;
  return { n, text: open.hasMore ? `${n}+` : String(n) };
}
