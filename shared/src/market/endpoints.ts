import { z } from 'zod';
import { endpoint } from '../contract/endpoint';
import {
  candleDto,
  fairnessPeriodDto,
  favouritesDto,
  productDto,
  tapeTickDto,
} from '../contract/answers';
import { candlesQuery, fairnessQuery, productIdParam, productsQuery, ticksQuery } from './requests';

/**
 * The market's endpoints (docs/API.md, Market), declared once. The public reads may meet the
 * per-address throttle; those that read the database, the gate too.
 */
const tag = 'Market';
const throttled = { 429: ['RATE_LIMITED'] } as const;
const fromDatabase = { 404: ['NOT_FOUND'], 429: ['RATE_LIMITED'], 503: ['UNAVAILABLE'] } as const;

export const products = endpoint({
  method: 'get',
  path: '/market/products',
  operationId: 'products',
  summary: 'The products, searched by name (q)',
  tag,
  query: productsQuery,
  responses: { 200: z.array(productDto) },
  errors: throttled,
});

export const product = endpoint({
  method: 'get',
  path: '/market/products/:id',
  operationId: 'product',
  summary: 'One product',
  tag,
  params: productIdParam,
  responses: { 200: productDto },
  errors: { ...throttled, 404: ['NOT_FOUND'] },
});

export const candles = endpoint({
  method: 'get',
  path: '/market/candles',
  operationId: 'candles',
  summary: 'Candles, oldest first',
  tag,
  query: candlesQuery,
  responses: { 200: z.array(candleDto) },
  errors: fromDatabase,
});

export const ticks = endpoint({
  method: 'get',
  path: '/market/ticks',
  operationId: 'ticks',
  summary: 'The recorded tape',
  tag,
  query: ticksQuery,
  responses: { 200: z.array(tapeTickDto) },
  errors: fromDatabase,
});

export const fairness = endpoint({
  method: 'get',
  path: '/market/fairness',
  operationId: 'fairness',
  summary: 'Commitments of the live feed, and secrets once revealed (docs/FAIRNESS.md)',
  tag,
  query: fairnessQuery,
  responses: { 200: z.array(fairnessPeriodDto) },
  errors: fromDatabase,
});

export const favourites = endpoint({
  method: 'get',
  path: '/me/favourites',
  operationId: 'favourites',
  summary: "The user's favourite products",
  tag,
  caller: 'user',
  responses: { 200: favouritesDto },
});

export const addFavourite = endpoint({
  method: 'put',
  path: '/me/favourites/:id',
  operationId: 'addFavourite',
  summary: 'Mark a product as a favourite (again: no change)',
  tag,
  caller: 'user',
  params: productIdParam,
  responses: { 200: favouritesDto },
  errors: { 404: ['NOT_FOUND'] },
});

export const removeFavourite = endpoint({
  method: 'delete',
  path: '/me/favourites/:id',
  operationId: 'removeFavourite',
  summary: 'Unmark a favourite (one not marked: no change)',
  tag,
  caller: 'user',
  params: productIdParam,
  responses: { 200: favouritesDto },
  errors: { 404: ['NOT_FOUND'] },
});
