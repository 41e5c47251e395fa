import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Order, TradeMode } from '@shared/orders/model';
import type { Page } from '@shared/wallet/model';
import { getOrders } from '@client/api/orders';
import {
  applyOrderToPages,
  emptyOrderList,
  firstPage,
  tabStatus,
  type OrderTab,
} from './order-list';
import { queryClient, queryKeys } from './query-client';

export const ORDER_PAGE_SIZE = 20;
/** Events kept this long, for a first page that was on its way when they came. */
const RECENT_MS = 60_000;

/** Ids seen settled: a page or an event read before the settlement must not reopen them. */
const settledIds = new Set<string>();
let recent: { at: number; order: Order }[] = [];

/** The cache key of one tab's orders in one mode. */
export const orderListKey = (mode: TradeMode, tab: OrderTab) => [...queryKeys.orders(mode), tab];

/**
 * One page of a tab. The first page takes again the events that came while it was on its way:
 * it may have been read before them.
 */
export async function loadOrderPage(
  mode: TradeMode,
  tab: OrderTab,
  cursor: string | null,
): Promise<Page<Order>> {
  const started = Date.now();
  const page = await getOrders({ status: tabStatus(tab), mode, limit: ORDER_PAGE_SIZE, cursor });
  const during = cursor
    ? []
    : recent.filter((e) => e.at >= started && e.order.mode === mode).map((e) => e.order);
  const list = firstPage({ ...emptyOrderList, settledIds }, tab, page, during);
  return { items: [...list.items], nextCursor: list.nextCursor };
}

/**
 * An order's new state (an `order` event, or a direct look at an overdue one) into every cached
 * tab of its mode. A tab still loading its first page takes it from the recent events.
 */
export function applyOrder(order: Order, client: QueryClient = queryClient): void {
  const now = Date.now();
  recent = recent.filter((e) => now - e.at < RECENT_MS);
  recent.push({ at: now, order });
  if (order.status !== 'open') settledIds.add(order.id);
  for (const [key, data] of client.getQueriesData<InfiniteData<Page<Order>>>({
    queryKey: queryKeys.orders(order.mode),
  })) {
    const tab = key[3] as OrderTab;
    if (!data) continue;
    client.setQueryData<InfiniteData<Page<Order>>>(key, {
      ...data,
      pages: applyOrderToPages(data.pages, tab, order, settledIds),
    });
  }
}
