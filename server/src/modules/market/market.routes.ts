import { Router } from 'express';
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
import { declare } from '@server/platform/http/route';
import type { FairnessService } from './fairness.service';
import type { MarketService } from './market.service';

/** GET /api/market/*: thin: validate → service → present. */
export function marketRoutes(market: MarketService, fairness: FairnessService): Router {
  const r = Router();
  const tag = 'Market';
  const method = 'get';
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
      errors: { 404: ['NOT_FOUND'] },
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
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      res.json(await market.candles(parseOrThrow(candlesQuery, req.query)));
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
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      res.json(await market.ticks(parseOrThrow(ticksQuery, req.query)));
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
      errors: { 404: ['NOT_FOUND'] },
    },
    async (req, res) => {
      res.json(await fairness.list(parseOrThrow(fairnessQuery, req.query)));
    },
  );
  return r;
}
