import type { Order, PlaceOrderBody, SellOrderBody } from '@shared/orders/model';
import { rateLimited } from '@server/platform/http/errors';
import type { TokenBuckets } from '@server/platform/token-bucket';
import type { OrdersService } from './orders.service';

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Placement behind the user's throttle (DECISIONS.md, Public market reads and order throttles): ORDER_BURST and
 * ORDER_RATE (config.ts: a burst of 10, then 5 a second). A human trader, even a fast one,
 * places a few a second at most; a script placing hundreds slows everyone's placements, which
 * share one database. Real and practice orders share one bucket per user: both cost the same
 * work. Checked in memory (or one Redis call) before any of the placement's database work. A
 * refused placement that carries an Idempotency-Key is answered from the key's stored answer
 * when there is one: a retry of an order already placed costs one primary-key read and must
 * still learn its outcome. Otherwise 429 RATE_LIMITED with the wait. Without a throttle
 * (ORDER_RATE=off), placement as it is.
 */
export function throttledPlacement(orders: OrdersService, throttle: TokenBuckets | null) {
  return async (
    userId: number,
    body: PlaceOrderBody,
    idempotencyKey?: string,
  ): Promise<{ status: number; body: Order }> => {
    const taken = throttle ? await throttle.take(String(userId)) : ({ ok: true } as const);
    if (taken.ok) return orders.place(userId, body, idempotencyKey);
    const stored = idempotencyKey ? await orders.stored(userId, body, idempotencyKey) : null;
    if (stored) return stored;
    orders.refused('RATE_LIMITED', body.mode);
    throw rateLimited(
      `Too many orders; try again in ${seconds(taken.retryAfterMs)} s`,
      taken.retryAfterMs,
    );
  };
}

/**
 * A sale behind the same bucket as placements: each holds a request open for up to the feed's
 * delay and writes a closing, so a script selling in a loop is slowed like one placing.
 */
export function throttledSale(orders: OrdersService, throttle: TokenBuckets | null) {
  return async (userId: number, id: number, body: SellOrderBody): Promise<Order> => {
    const taken = throttle ? await throttle.take(String(userId)) : ({ ok: true } as const);
    if (taken.ok) return orders.sell(userId, id, body);
    throw rateLimited(
      `Too many requests; try again in ${seconds(taken.retryAfterMs)} s`,
      taken.retryAfterMs,
    );
  };
}
