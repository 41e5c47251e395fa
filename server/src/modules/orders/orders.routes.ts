import { Router } from 'express';
import {
  getOrder,
  listOrders,
  placeOrder,
  resultsSeen,
  sellOrder,
  tradingStats,
  unseenResults,
} from '@shared/orders/endpoints';
import { parseIdempotencyKey } from '@server/platform/idempotency';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { Reply, serve } from '@server/platform/http/serve';
import type { AuthService } from '../auth/auth.service';
import type { OrdersService } from './orders.service';
import type { TokenBuckets } from '@server/platform/token-bucket';
import { throttledPlacement, throttledSale } from './order-throttle';

/**
 * /api/orders (shared/src/orders/endpoints.ts): thin: validate → authorise → service → present.
 * Placements and sales pass the user's throttle first (`throttle`: ORDER_BURST / ORDER_RATE; none
 * when off).
 */
export function ordersRoutes(
  auth: AuthService,
  orders: OrdersService,
  throttle: TokenBuckets | null = null,
): Router {
  const r = Router();
  const user = requireUser(auth);
  const place = throttledPlacement(orders, throttle);
  serve(r, placeOrder, user, async ({ body }, { req, res }) => {
    const key = parseIdempotencyKey(req.headers['idempotency-key']);
    const answer = await place(sessionOf(res.locals).userId, body, key);
    return new Reply(answer.status, answer.body);
  });
  const sell = throttledSale(orders, throttle);
  serve(r, sellOrder, user, ({ params, body }, { res }) =>
    sell(sessionOf(res.locals).userId, Number(params.id), body),
  );
  serve(r, listOrders, user, ({ query }, { res }) =>
    orders.list(sessionOf(res.locals).userId, query),
  );
  serve(r, unseenResults, user, (_, { res }) => orders.unseenResults(sessionOf(res.locals).userId));
  serve(r, resultsSeen, user, ({ body }, { res }) =>
    orders.resultsSeen(sessionOf(res.locals).userId, body.ids),
  );
  serve(r, tradingStats, user, ({ query }, { res }) =>
    orders.stats(sessionOf(res.locals).userId, query),
  );
  serve(r, getOrder, user, ({ params }, { res }) =>
    orders.get(sessionOf(res.locals).userId, Number(params.id)),
  );
  return r;
}
