/**
 * The three lists of the order page and how live `order` events change them. Pure, so the
 * merging rules are tested apart from React:
 * - an order belongs to "records" always, to "positions" while open, to "history" once settled;
 * - a settled order never turns open again, and an entered one never loses its entry (a late page
 *   or a replayed event cannot undo them: the placement's event may arrive after the entry's);
 * - lists are newest first (by id, as the server pages them); an event for an order beyond the
 *   pages loaded so far is left for the page that will bring it, so nothing shows twice.
 */
import type { Order } from '@shared/orders/model';
import type { Page } from '@shared/wallet/model';

/** The lists kept in the cache: every order, the open ones, the settled ones. */
export type OrderTab = 'records' | 'positions' | 'history';

/**
 * The two tabs of the Orders page, Open and Closed. "Every order" showed the same cards as the
 * two of them together and is no longer a tab of its own.
 */
export const orderTabs = ['positions', 'history'] as const;
export type OrdersPageTab = (typeof orderTabs)[number];

/** The tab a `?tab=` asks for: old links (`records`, none, anything else) open the Open tab. */
export function orderTabFrom(value: string | null): OrdersPageTab {
  return value === 'history' ? 'history' : 'positions';
}

/** The `status` filter of GET /api/orders for a tab. */
export function tabStatus(tab: OrderTab): 'open' | 'closed' | undefined {
  return tab === 'positions' ? 'open' : tab === 'history' ? 'closed' : undefined;
}

export function belongsTo(tab: OrderTab, order: Pick<Order, 'status'>): boolean {
  if (tab === 'positions') return order.status === 'open';
  if (tab === 'history') return order.status !== 'open';
  return true;
}

/** Order ids are decimal integers as strings: compares them as numbers (a > b → positive). */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface OrderList {
  /** Newest first. */
  items: readonly Order[];
  /** Where the next page starts; null once the last page is in. */
  nextCursor: string | null;
  /** The first page has arrived. */
  loaded: boolean;
  /** Ids seen settled: a page read before the settlement must not bring them back as open. */
  settledIds: ReadonlySet<string>;
}

export const emptyOrderList: OrderList = {
  items: [],
  nextCursor: null,
  loaded: false,
  settledIds: new Set(),
};

/** How far an order has come: waiting for its entry tick, entered, settled. */
const progress = (o: Order) => (o.status !== 'open' ? 2 : o.entry ? 1 : 0);

/** The later state of one order: settled beats entered beats waiting, whatever arrived last. */
function newer(a: Order, b: Order): Order {
  return progress(a) > progress(b) ? a : b;
}

const byIdDesc = (a: Order, b: Order) => compareIds(b.id, a.id);

/** True when `id` lies within the pages loaded so far (the next page starts below the cursor). */
function inLoadedRange(list: OrderList, id: string): boolean {
  return !list.loaded || list.nextCursor === null || compareIds(id, list.nextCursor) > 0;
}

function rememberSettled(list: OrderList, order: Order): ReadonlySet<string> {
  if (order.status === 'open' || list.settledIds.has(order.id)) return list.settledIds;
  return new Set(list.settledIds).add(order.id);
}

/** A live `order` event (an order opened or settled) applied to one tab's list. */
export function applyOrderEvent(list: OrderList, tab: OrderTab, order: Order): OrderList {
  const settledIds = rememberSettled(list, order);
  if (order.status === 'open' && settledIds.has(order.id)) return list; // a stale replay
  const index = list.items.findIndex((o) => o.id === order.id);
  if (!belongsTo(tab, order)) {
    if (index === -1) return settledIds === list.settledIds ? list : { ...list, settledIds };
    return { ...list, settledIds, items: list.items.filter((o) => o.id !== order.id) };
  }
  if (index !== -1) {
    const items = [...list.items];
    items[index] = newer(list.items[index]!, order);
    return { ...list, settledIds, items };
  }
  if (!inLoadedRange(list, order.id)) return { ...list, settledIds };
  return { ...list, settledIds, items: [...list.items, order].sort(byIdDesc) };
}

/** The next page from the server, added below what the list holds. */
export function addPage(list: OrderList, tab: OrderTab, page: Page<Order>): OrderList {
  const byId = new Map(list.items.map((o) => [o.id, o]));
  for (const o of page.items) {
    if (!belongsTo(tab, o) || (o.status === 'open' && list.settledIds.has(o.id))) continue;
    const existing = byId.get(o.id);
    byId.set(o.id, existing ? newer(existing, o) : o);
  }
  return {
    items: [...byId.values()].sort(byIdDesc),
    nextCursor: page.nextCursor,
    loaded: true,
    settledIds: list.settledIds,
  };
}

/**
 * The first page (on opening the tab, or again after a reconnect, when events may have been
 * missed): it replaces the list, then the events that arrived while it was on its way are applied
 * again, since the page may have been read before them.
 */
export function firstPage(
  list: OrderList,
  tab: OrderTab,
  page: Page<Order>,
  eventsDuringLoad: readonly Order[] = [],
): OrderList {
  const fresh = addPage({ ...emptyOrderList, settledIds: list.settledIds }, tab, page);
  return eventsDuringLoad.reduce((acc, order) => applyOrderEvent(acc, tab, order), fresh);
}

/**
 * Open orders that should have settled by now (`graceMs` past expiry on the server clock), or
 * should have their entry (`graceMs` past acceptance: the entry tick comes within the feed delay,
 * or the order is void): their `order` event may have been lost, so the page asks the server.
 */
export function overdueOrders(
  items: readonly Order[],
  serverNow: number,
  graceMs: number,
): Order[] {
  return items.filter(
    (o) =>
      o.status === 'open' &&
      (serverNow - o.expiresAt > graceMs ||
        (o.entry === null && serverNow - o.createdAt > graceMs)),
  );
}

/**
 * A live `order` event applied to one tab's cached pages: to the page that holds the order, else
 * to the first page whose range takes it (a new order: the first); an order beyond the pages
 * loaded is left for the page that will bring it.
 */
export function applyOrderToPages(
  pages: readonly Page<Order>[],
  tab: OrderTab,
  order: Order,
  settledIds: ReadonlySet<string>,
): Page<Order>[] {
  const holder = pages.findIndex((p) => p.items.some((o) => o.id === order.id));
  const target =
    holder !== -1
      ? holder
      : pages.findIndex((p) => p.nextCursor === null || compareIds(order.id, p.nextCursor) > 0);
  return pages.map((page, i) => {
    if (i !== target) return page;
    const list = { items: page.items, nextCursor: page.nextCursor, loaded: true, settledIds };
    const next = applyOrderEvent(list, tab, order);
    return next.items === page.items
      ? page
      : { items: [...next.items], nextCursor: page.nextCursor };
  });
}
