import { useEffect, useMemo, useState } from 'react';
import { merge } from 'rxjs';
import type { Order, TradeMode } from '@shared/orders/model';
import { getOrders } from '@client/api/orders';
import { useApiQuery, useIsLoggedIn } from '@client/state';
import type { Page } from '@shared/wallet/model';
import {
  applyOrderEvent,
  emptyOrderList,
  firstPage,
  type OrderList,
  type OrderTab,
} from '@client/state/order-list';
import { orderAnswer$ } from '@client/state/order-answers';
import { userEvent$ } from '@client/streams';
import { openPositions, recentClosed } from './positions';

/** Open orders read at once: every position the user may hold (the server's page maximum). */
const OPEN_LIMIT = 100;
/** Settled orders read for the chart's arrows and "repeat last order". */
const CLOSED_LIMIT = 50;
/** Events kept since the page opened, replayed over each fresh read. */
const EVENTS_KEPT = 200;

export interface ProductOrders {
  /** This product's open positions in the current mode, soonest expiry first. */
  open: Order[];
  /** Its recent settled orders (with entry and exit), newest first. */
  closed: Order[];
  /** Every order read, any product: "repeat last order" picks from these. */
  all: Order[];
}

const none: ProductOrders = { open: [], closed: [], all: [] };

export interface Timed {
  at: number;
  order: Order;
}
export interface Read {
  startedAt: number;
  page: Page<Order>;
}

async function read(
  loggedIn: boolean,
  load: (signal?: AbortSignal) => Promise<Page<Order>>,
): Promise<Read | null> {
  if (!loggedIn) return null;
  const startedAt = Date.now();
  return { startedAt, page: await load() };
}

/**
 * A read with the events that came since it started applied over it (it may have been read
 * before them); before the first read, the events alone. Events older than the read are in it
 * already: replaying them could bring back a position that settled while the socket was down.
 */
export function merged(tab: OrderTab, last: Read | null, events: readonly Timed[]): OrderList {
  if (!last) {
    const start: OrderList = { ...emptyOrderList, loaded: true };
    return events.reduce((acc, e) => applyOrderEvent(acc, tab, e.order), start);
  }
  const since = events.filter((e) => e.at >= last.startedAt).map((e) => e.order);
  return firstPage(emptyOrderList, tab, last.page, since);
}

/**
 * The user's orders for the detail page. Both lists are read under the user's cache keys, so a
 * reconnect (query-bridge invalidates everything under "me") or a reload reads them afresh; the
 * `order` events since the page opened are replayed over every read, with the order list's
 * rules (a settled order never reopens), so a position shows the moment it is placed and goes
 * the moment it settles (or is sold: the sale's answer counts as its event).
 */
export function useProductOrders(productId: string, mode: TradeMode): ProductOrders {
  const loggedIn = useIsLoggedIn();
  const open = useApiQuery(['me', 'detail-orders', mode, 'open'], () =>
    read(loggedIn, (signal) => getOrders({ status: 'open', mode, limit: OPEN_LIMIT }, signal)),
  );
  const closed = useApiQuery(['me', 'detail-orders', mode, 'closed'], () =>
    read(loggedIn, (signal) => getOrders({ status: 'closed', mode, limit: CLOSED_LIMIT }, signal)),
  );
  const [events, setEvents] = useState<Timed[]>([]);
  useEffect(() => {
    if (!loggedIn) return;
    const sub = merge(userEvent$('order'), orderAnswer$).subscribe((order) =>
      setEvents((list) => [...list, { at: Date.now(), order }].slice(-EVENTS_KEPT)),
    );
    return () => sub.unsubscribe();
  }, [loggedIn]);

  const openRead = open.status === 'ready' ? open.data : null;
  const closedRead = closed.status === 'ready' ? closed.data : null;
  return useMemo(() => {
    if (!loggedIn) return none;
    const positions = merged('positions', openRead, events);
    const history = merged('history', closedRead, events);
    const all = [...positions.items, ...history.items];
    return {
      open: openPositions(positions.items, productId, mode),
      closed: recentClosed(history.items, productId, mode),
      all,
    };
  }, [loggedIn, openRead, closedRead, events, productId, mode]);
}
