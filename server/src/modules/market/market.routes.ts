import { Router, type RequestHandler } from 'express';
import * as endpoints from '@shared/market/endpoints';
import { sent, serve } from '@server/platform/http/serve';
import { sendCached } from '@server/platform/read-cache';
import type { MarketService } from './market.service';
import type { PublicReads } from './public-reads';

/**
 * GET /api/market/* (shared/src/market/endpoints.ts): thin: validate → service → present. Anyone
 * may call them, so every call first passes the per-address throttle (`throttle`,
 * MARKET_READ_RATE; none when off), and the reads that reach the database go through `reads`: a
 * shared cache of serialized answers and a cap on this process's database reads at once
 * (public-reads.ts), sent as they are.
 */
export function marketRoutes({
  market,
  reads,
  throttle,
}: {
  market: MarketService;
  reads: PublicReads;
  throttle: RequestHandler | null;
}): Router {
  const r = Router();
  if (throttle) r.use('/market', throttle);
  serve(r, endpoints.products, undefined, ({ query }) => Promise.resolve(market.products(query.q)));
  serve(r, endpoints.product, undefined, ({ params }) =>
    Promise.resolve(market.product(params.id)),
  );
  serve(r, endpoints.candles, undefined, async ({ query }, { req, res }) => {
    await sendCached(req, res, await reads.candles(query));
    return sent;
  });
  serve(r, endpoints.ticks, undefined, async ({ query }, { req, res }) => {
    await sendCached(req, res, await reads.ticks(query));
    return sent;
  });
  serve(r, endpoints.fairness, undefined, async ({ query }, { req, res }) => {
    await sendCached(req, res, await reads.fairness(query));
    return sent;
  });
  return r;
}
