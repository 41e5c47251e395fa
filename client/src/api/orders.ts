import type { ContentPage } from '@shared/content';
import type { Order, PlaceOrderBody, TradeMode } from '@shared/orders';
import type { Page } from '@shared/wallet';
import * as orders from '@shared/orders.routes';
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
