import { Router } from 'express';
import { z } from 'zod';
import { ordersQuery, placeOrderBody } from '@shared/orders';
import { parseIdempotencyKey } from '@server/platform/idempotency';
import { parseOrThrow } from '@server/platform/http/validate';
import { requireUser, sessionOf } from '@server/platform/http/auth';
import type { AuthService } from '../auth/auth.service';
import type { OrdersService } from './orders.service';

const orderIdParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'order id is a number') });

/** /api/orders: thin: validate → authorise → service → present. */
export function ordersRoutes(auth: AuthService, orders: OrdersService): Router {
  const r = Router();
  r.use('/orders', requireUser(auth));
  r.post('/orders', async (req, res) => {
    const key = parseIdempotencyKey(req.headers['idempotency-key']);
    const answer = await orders.place(
      sessionOf(res.locals).userId,
      parseOrThrow(placeOrderBody, req.body),
      key,
    );
    res.status(answer.status).json(answer.body);
  });
  r.get('/orders', async (req, res) => {
    res.json(await orders.list(sessionOf(res.locals).userId, parseOrThrow(ordersQuery, req.query)));
  });
  r.get('/orders/:id', async (req, res) => {
    const { id } = parseOrThrow(orderIdParam, req.params);
    res.json(await orders.get(sessionOf(res.locals).userId, Number(id)));
  });
  return r;
}
