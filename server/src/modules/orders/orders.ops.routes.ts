import { Router } from 'express';
import { z } from 'zod';
import type { OperatorGate } from '@server/platform/http/operator-gate';
import { declare } from '@server/platform/http/route';
import type { OrdersService } from './orders.service';

/** One mode's house figures, minor units and counts. */
const houseFigures = z.object({
  placements: z.int(),
  volume: z.int().describe('Σ stakes placed'),
  openOrders: z.int(),
  exposure: z.int().describe('Σ stakes of open orders'),
  openPayout: z.int().describe('Σ payouts of open orders if every one won'),
  settled: z.int(),
  houseResult: z.int().describe('Σ(stake − payout) over settled orders'),
});

/**
 * /api/ops/house: the house's figures, real and practice apart (placements, exposure, house
 * result), so practice volume never looks like revenue.
 */
export function ordersOpsRoutes(orders: OrdersService, gate: OperatorGate): Router {
  const r = Router();
  declare(
    r,
    {
      method: 'get',
      path: '/ops/house',
      operationId: 'houseFigures',
      summary: 'Placements, exposure and house result, real and practice apart',
      tag: 'Operators',
      auth: gate('admin'),
      responses: { 200: z.object({ real: houseFigures, practice: houseFigures }) },
    },
    async (_req, res) => {
      res.json(await orders.houseFigures());
    },
  );
  return r;
}
