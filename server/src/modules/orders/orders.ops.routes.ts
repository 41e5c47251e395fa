import { Router } from 'express';
import * as endpoints from '@shared/orders/ops.endpoints';
import type { OperatorGate } from '@server/platform/http/operator-gate';
import { serve } from '@server/platform/http/serve';
import type { OrdersService } from './orders.service';

/**
 * /api/ops/house (shared/src/orders/ops.endpoints.ts): the house's figures, real and practice
 * apart (placements, exposure, house result), so practice volume never looks like revenue.
 */
export function ordersOpsRoutes(orders: OrdersService, gate: OperatorGate): Router {
  const r = Router();
  serve(r, endpoints.houseFigures, gate('admin'), () => orders.houseFigures());
  return r;
}
