import { Router } from 'express';
import { requireOperator } from '@server/platform/http/auth';
import type { OperatorTokenHashes } from '@server/platform/http/auth';
import type { OrdersService } from './orders.service';

/**
 * /api/ops/house: the house's figures, real and practice apart (placements, exposure, house
 * result), so practice volume never looks like revenue.
 */
export function ordersOpsRoutes(
  orders: OrdersService,
  operatorTokenHash: OperatorTokenHashes | null,
): Router {
  const r = Router();
  r.get('/ops/house', requireOperator(operatorTokenHash), async (_req, res) => {
    res.json(await orders.houseFigures());
  });
  return r;
}
