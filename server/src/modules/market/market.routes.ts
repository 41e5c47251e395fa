import { Router } from 'express';
import {
  candlesQuery,
  fairnessQuery,
  productIdParam,
  productsQuery,
  ticksQuery,
} from '@shared/market.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import type { FairnessService } from './fairness.service';
import type { MarketService } from './market.service';

/** GET /api/market/*: thin: validate → service → present. */
export function marketRoutes(market: MarketService, fairness: FairnessService): Router {
  const r = Router();
  r.get('/market/products', (req, res) => {
    const { q } = parseOrThrow(productsQuery, req.query);
    res.json(market.products(q));
  });
  r.get('/market/products/:id', (req, res) => {
    const { id } = parseOrThrow(productIdParam, req.params);
    res.json(market.product(id));
  });
  r.get('/market/candles', async (req, res) => {
    res.json(await market.candles(parseOrThrow(candlesQuery, req.query)));
  });
  r.get('/market/ticks', async (req, res) => {
    res.json(await market.ticks(parseOrThrow(ticksQuery, req.query)));
  });
  r.get('/market/fairness', async (req, res) => {
    res.json(await fairness.list(parseOrThrow(fairnessQuery, req.query)));
  });
  return r;
}
