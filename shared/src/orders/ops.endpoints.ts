import { z } from 'zod';
import { endpoint } from '../contract/endpoint';

/** One mode's house figures, minor units and counts. */
const modeFigures = z.object({
  placements: z.int(),
  volume: z.int().describe('Σ stakes placed'),
  openOrders: z.int(),
  exposure: z.int().describe('Σ stakes of open orders'),
  openPayout: z.int().describe('Σ payouts of open orders if every one won'),
  settled: z.int(),
  houseResult: z.int().describe('Σ(stake − payout) over settled orders'),
});

/**
 * The house's figures (docs/API.md, Operators), real and practice apart, so practice volume never
 * looks like revenue. Which roles reach it is the server's gate's (`gate('admin')`).
 */
export const houseFigures = endpoint({
  method: 'get',
  path: '/ops/house',
  operationId: 'houseFigures',
  summary: 'Placements, exposure and house result, real and practice apart',
  tag: 'Operators',
  caller: 'operator',
  responses: { 200: z.object({ real: modeFigures, practice: modeFigures }) },
});
