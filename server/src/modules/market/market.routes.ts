import { Router } from 'express';
import { candlesQuery, productIdParam, productsQuery, ticksQuery } from '@shared/market.schemas';
import { parseOrThrow } from '@server/platform/http/validate';
import type { MarketService } from './market.service';

/** GET /api/market/*: thin: validate → service → present. */
export function marketRoutes(market: MarketService): Router {
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
  return r;
}
