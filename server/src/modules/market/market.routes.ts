import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { candleDto, fairnessPeriodDto, productDto, tapeTickDto } from '@shared/dto';
import {
  candlesQuery,
  fairnessQuery,
  productIdParam,
  productsQuery,
  ticksQuery,
} from '@shared/market.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import { declare, type RouteSpec } from '@server/platform/http/route';
import { sendCached } from '@server/platform/read-cache';
import type { MarketService } from './market.service';
import type { PublicReads } from './public-reads';

/**
 * GET /api/market/*: thin: validate → service → present. Anyone may call them, so every call
 * first passes the per-address throttle (`throttle`, MARKET_READ_RATE; none when off), and the
 * reads that reach the database go through `reads`: a shared cache of serialized answers and a
 * cap on this process's database reads at once (public-reads.ts).
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
  const tag = 'Market';
  const method = 'get';
  if (throttle) r.use('/market', throttle);
  // Every market read may meet the throttle; those that read the database, the gate too.
  const throttled: RouteSpec['errors'] = { 429: ['RATE_LIMITED'] };
  const fromDatabase: RouteSpec['errors'] = {
    404: ['NOT_FOUND'],
    429: ['RATE_LIMITED'],
    503: ['UNAVAILABLE'],
  };
  declare(
    r,
    {
      method,
      path: '/market/products',
      operationId: 'products',
      summary: 'The products, searched by name (q)',
      tag,
      query: productsQuery,
      responses: { 200: z.array(productDto) },
      errors: throttled,
    },
    (req, res) => {
      const { q } = parseOrThrow(productsQuery, req.query);
      res.json(market.products(q));
    },
  );
  declare(
    r,
    {
      method,
      path: '/market/products/:id',
      operationId: 'product',
      summary: 'One product',
      tag,
      params: productIdParam,
      responses: { 200: productDto },
      errors: { ...throttled, 404: ['NOT_FOUND'] },
    },
    (req, res) => {
      const { id } = parseOrThrow(productIdParam, req.params);
      res.json(market.product(id));
    },
  );
  declare(
    r,
    {
      method,
      path: '/market/candles',
      operationId: 'candles',
      summary: 'Candles, oldest first',
      tag,
      query: candlesQuery,
      responses: { 200: z.array(candleDto) },
      errors: fromDatabase,
    },
    async (req, res) => {
      await sendCached(req, res, await reads.candles(parseOrThrow(candlesQuery, req.query)));
    },
  );
  declare(
    r,
    {
      method,
      path: '/market/ticks',
      operationId: 'ticks',
      summary: 'The recorded tape',
      tag,
      query: ticksQuery,
      responses: { 200: z.array(tapeTickDto) },
      errors: fromDatabase,
    },
    async (req, res) => {
      await sendCached(req, res, await reads.ticks(parseOrThrow(ticksQuery, req.query)));
    },
  );
  declare(
    r,
    {
      method,
      path: '/market/fairness',
      operationId: 'fairness',
      summary: 'Commitments of the live feed, and secrets once revealed (docs/FAIRNESS.md)',
      tag,
      query: fairnessQuery,
      responses: { 200: z.array(fairnessPeriodDto) },
      errors: fromDatabase,
    },
    async (req, res) => {
      await sendCached(req, res, await reads.fairness(parseOrThrow(fairnessQuery, req.query)));
    },
  );
  return r;
}
