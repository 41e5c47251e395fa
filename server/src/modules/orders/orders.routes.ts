import { Router } from 'express';
import { z } from 'zod';
import { orderDto, pageOf } from '@shared/dto';
import { ordersQuery, placeOrderBody } from '@shared/orders';
import { parseIdempotencyKey } from '@server/platform/idempotency';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import { declare } from '@server/platform/http/route';
import type { AuthService } from '../auth/auth.service';
import type { OrdersService } from './orders.service';
import type { TokenBuckets } from '@server/platform/token-bucket';
import { throttledPlacement } from './order-throttle';

const orderIdParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'order id is a number') });

/**
 * /api/orders: thin: validate → authorise → service → present. Placements pass the user's
 * throttle first (`throttle`: ORDER_BURST / ORDER_RATE; none when off).
 */
export function ordersRoutes(
  auth: AuthService,
  orders: OrdersService,
  throttle: TokenBuckets | null = null,
): Router {
  const r = Router();
  const user = requireUser(auth);
  const place = throttledPlacement(orders, throttle);
  const tag = 'Orders';
  declare(
    r,
    {
      method: 'post',
      path: '/orders',
      operationId: 'placeOrder',
      summary: 'Place an order',
      tag,
      auth: user,
      body: placeOrderBody,
      idempotent: true,
      responses: { 201: orderDto },
      errors: {
        400: ['AMOUNT_OUT_OF_RANGE', 'DURATION_INVALID'],
        404: ['NOT_FOUND'],
        409: [
          'INSUFFICIENT_BALANCE',
          'MARKET_CLOSED',
          'PRODUCT_MAINTENANCE',
          'QUOTE_STALE',
          'RATE_CHANGED',
        ],
        429: ['RATE_LIMITED'],
      },
    },
    async (req, res) => {
      const key = parseIdempotencyKey(req.headers['idempotency-key']);
      const answer = await place(
        sessionOf(res.locals).userId,
        parseOrThrow(placeOrderBody, req.body),
        key,
      );
      res.status(answer.status).json(answer.body);
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/orders',
      operationId: 'orders',
      summary: "The user's orders",
      tag,
      auth: user,
      query: ordersQuery,
      responses: { 200: pageOf(orderDto) },
    },
    async (req, res) => {
      const query = parseOrThrow(ordersQuery, req.query);
      res.json(await orders.list(sessionOf(res.locals).userId, query));
    },
  );
  declare(
    r,
    {
      method: 'get',
      path: '/orders/:id',
      operationId: 'order',
      summary: "One of the user's orders",
      tag,
      auth: user,
      params: orderIdParam,
      responses: { 200: orderDto },
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      const { id } = parseOrThrow(orderIdParam, req.params);
      res.json(await orders.get(sessionOf(res.locals).userId, Number(id)));
    },
  );
  return r;
}
