import { useCallback, useEffect, useRef, useState } from 'react';
import type { Order, TradeMode } from '@shared/orders';
import { isAbort } from '@client/api/client';
import { getOrder, getOrders } from '@client/api/orders';
import { reconnected$, serverNow, userEvent$ } from '@client/streams';
import {
  addPage,
  applyOrderEvent,
  emptyOrderList,
  firstPage,
  overdueOrders,
  tabStatus,
  type OrderList,
  type OrderTab,
} from './order-list';

export const PAGE_SIZE = 20;
/**
 * Past expiry by this much and still open, or past acceptance by this much and still without an
 * entry: ask the server (the event may have been lost).
 */
const OVERDUE_MS = 5_000;
const OVERDUE_CHECK_MS = 2_000;

type Load = { status: 'loading' } | { status: 'ready' } | { status: 'error'; error: unknown };

export interface OrderListState {
  list: OrderList;
  load: Load;
  retry: () => void;
  loadMore: () => void;
  more: { busy: boolean; error: unknown };
}

/**
 * One tab's orders: the first page over REST, further pages on demand, every `order` event of the
 * user's room applied live (placed orders appear, entries fill in, settled ones move), a fresh first page after a
 * reconnect, and a direct look at any position that should have settled but has not said so.
 */
export function useOrderList(tab: OrderTab, mode: TradeMode = 'real'): OrderListState {
  const [list, setList] = useState<OrderList>(emptyOrderList);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [more, setMore] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(list);
  useEffect(() => {
    latest.current = list;
  }, [list]);

  useEffect(() => {
    const controller = new AbortController();
    let generation = 0;
    // Events that arrive while a first page is on its way; the page may predate them.
    let during: Order[] | null = null;

    const loadFirst = () => {
      const mine = ++generation;
      during = [];
      getOrders({ status: tabStatus(tab), mode, limit: PAGE_SIZE }, controller.signal).then(
        (page) => {
          if (mine !== generation) return;
          const events = during ?? [];
          during = null;
          setList((current) => firstPage(current, tab, page, events));
          setLoad({ status: 'ready' });
        },
        (error: unknown) => {
          if (mine !== generation || isAbort(error)) return;
          during = null;
          setLoad({ status: 'error', error });
        },
      );
    };

    const subs = [
      userEvent$('order').subscribe((order) => {
        // Each mode is its own list: the other mode's orders never show here.
        if (order.mode !== mode) return;
        during?.push(order);
        setList((current) => applyOrderEvent(current, tab, order));
      }),
      // Events sent while we were away are lost: read the list again.
      reconnected$.subscribe(() => loadFirst()),
    ];
    loadFirst();

    const asked = new Map<string, number>();
    const overdue = setInterval(() => {
      const now = Date.now();
      for (const order of overdueOrders(latest.current.items, serverNow(), OVERDUE_MS)) {
        if (now - (asked.get(order.id) ?? 0) < OVERDUE_MS) continue;
        asked.set(order.id, now);
        getOrder(order.id, controller.signal).then(
          (fresh) => setList((current) => applyOrderEvent(current, tab, fresh)),
          () => undefined, // asked again at the next check
        );
      }
    }, OVERDUE_CHECK_MS);

    return () => {
      controller.abort();
      clearInterval(overdue);
      for (const sub of subs) sub.unsubscribe();
    };
  }, [tab, mode, attempt]);

  const cursor = list.loaded ? list.nextCursor : null;
  const loadMore = useCallback(() => {
    if (more.busy || cursor === null) return;
    setMore({ busy: true, error: null });
    getOrders({ status: tabStatus(tab), mode, limit: PAGE_SIZE, cursor }).then(
      (page) => {
        // A reload meanwhile has started the list over: this page belongs to the old one.
        setList((current) =>
          current.nextCursor === cursor ? addPage(current, tab, page) : current,
        );
        setMore({ busy: false, error: null });
      },
      (error: unknown) => setMore({ busy: false, error }),
    );
  }, [tab, mode, cursor, more.busy]);

  const retry = useCallback(() => {
    setLoad({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  return { list, load, retry, loadMore, more };
}
