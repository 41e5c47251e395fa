import { useEffect, useRef } from 'react';
import type { Order, TradeMode } from '@shared/orders/model';
import { getOrder } from '@client/api/orders';
import { serverNow } from '@client/streams';
import {
  applyOrder,
  loadOrderPage,
  orderListKey,
  overdueOrders,
  type OrderTab,
} from '@client/state';
import { usePagedQuery } from '@client/state/paged';

/**
 * Past expiry by this much and still open, or past acceptance by this much and still without an
 * entry: ask the server (the event may have been lost).
 */
const OVERDUE_MS = 5_000;
const OVERDUE_CHECK_MS = 2_000;

type Load = { status: 'loading' } | { status: 'ready' } | { status: 'error'; error: unknown };

export interface OrderListState {
  list: { items: readonly Order[]; hasMore: boolean; loaded: boolean };
  load: Load;
  retry: () => void;
  loadMore: () => void;
  more: { busy: boolean; error: unknown };
}

/**
 * One tab's orders: an infinite query (first page, further pages on demand) whose cached pages
 * every `order` event of the user's room changes in place (query-bridge.ts: placed orders appear,
 * entries fill in, settled ones move), read again after a reconnect, and a direct look at any
 * position that should have settled but has not said so.
 */
export function useOrderList(tab: OrderTab, mode: TradeMode = 'real'): OrderListState {
  const paged = usePagedQuery(orderListKey(mode, tab), (cursor) =>
    loadOrderPage(mode, tab, cursor),
  );
  const latest = useRef(paged.items);
  useEffect(() => {
    latest.current = paged.items;
  }, [paged.items]);

  useEffect(() => {
    const asked = new Map<string, number>();
    const overdue = setInterval(() => {
      const now = Date.now();
      for (const order of overdueOrders(latest.current, serverNow(), OVERDUE_MS)) {
        if (now - (asked.get(order.id) ?? 0) < OVERDUE_MS) continue;
        asked.set(order.id, now);
        getOrder(order.id).then(
          (fresh) => applyOrder(fresh),
          () => undefined, // asked again at the next check
        );
      }
    }, OVERDUE_CHECK_MS);
    return () => clearInterval(overdue);
  }, []);

  const loaded = paged.status === 'ready';
  return {
    list: { items: paged.items, hasMore: paged.hasMore, loaded },
    load:
      paged.status === 'error' ? { status: 'error', error: paged.error } : { status: paged.status },
    retry: paged.retry,
    loadMore: paged.loadMore,
    more: { busy: paged.loadingMore, error: paged.moreError },
  };
}
