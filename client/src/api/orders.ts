import type { ContentPage } from '@shared/content/model';
import type { Order, PlaceOrderBody, SellOrderBody, TradeMode } from '@shared/orders/model';
import type { Page } from '@shared/wallet/model';
import * as orders from '@shared/orders/routes';
import { call } from './client';
import { getContentPage } from './content';

/**
 * Places a timed order. `idempotencyKey` names the attempt: sending the same attempt again (a
 * retry after a lost answer) replays the first answer instead of buying twice. Rejects with the
 * server's ApiError (AMOUNT_OUT_OF_RANGE, RATE_CHANGED, QUOTE_STALE, …).
 */
export function placeOrder(body: PlaceOrderBody, idempotencyKey: string): Promise<Order> {
  return call(orders.placeOrder, { body }, { idempotencyKey });
}

/**
 * Sells an open order early (docs/FAIRNESS.md, Early close): `expected` is the value shown,
 * `tolerance` how much less the seller accepts. The sale executes at the first tick after the
 * server accepts it; answers the sold Order. Rejects with the server's ApiError
 * (SELL_PRICE_CHANGED, SELL_NOT_ALLOWED, INVALID_STATE, QUOTE_STALE, …).
 */
export function sellOrder(id: string, body: SellOrderBody): Promise<Order> {
  return call(orders.sellOrder, { params: { id }, body });
}

export interface OrdersQuery {
  /** open = positions, closed = settled; none = every order. */
  status?: 'open' | 'closed';
  /** Real unless asked: positions and history are per mode. */
  mode?: TradeMode;
  limit?: number;
  cursor?: string | null;
}

/** One page of the user's orders, newest first. */
export function getOrders(query: OrdersQuery, signal?: AbortSignal): Promise<Page<Order>> {
  return call(
    orders.listOrders,
    { query: { ...query, cursor: query.cursor ?? undefined } },
    { signal },
  );
}

/** One of the user's own orders (another user's is NOT_FOUND). */
export function getOrder(id: string, signal?: AbortSignal): Promise<Order> {
  return call(orders.getOrder, { params: { id } }, { signal });
}

/** The trading rules (entry, exit, draw, void), linked from the order ticket. */
export function getTradingRules(lang: string, signal?: AbortSignal): Promise<ContentPage> {
  return getContentPage('rules', lang, signal);
}

/** The user's settled orders no device has acknowledged yet, newest first (at most 20). */
export function getUnseenResults(): Promise<{ items: Order[] }> {
  return call(orders.unseenResults, {});
}

/** Acknowledges results (idempotent): the server tells the user's other devices. */
export function markResultsSeen(ids: string[]): Promise<{ ids: string[] }> {
  return call(orders.resultsSeen, { body: { ids } });
}
