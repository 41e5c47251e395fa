import { z } from 'zod';
import { endpoint } from '../contract/endpoint';
import { orderDto, pageOf, resultsSeenDto, unseenResultsDto } from '../contract/answers';
import { ordersQuery, placeOrderBody, resultsSeenBody, sellOrderBody } from './model';
import { statsQuery, tradingStatsDto } from './stats';

/** The orders' endpoints (docs/API.md, Orders), declared once for the server, docs and clients. */
const tag = 'Orders';

export const placeOrder = endpoint({
  method: 'post',
  path: '/orders',
  operationId: 'placeOrder',
  summary: 'Place an order',
  tag,
  caller: 'user',
  body: placeOrderBody,
  idempotent: true,
  responses: { 201: orderDto },
  errors: {
    400: ['AMOUNT_OUT_OF_RANGE', 'DURATION_INVALID'],
    404: ['NOT_FOUND'],
    409: [
      'INSUFFICIENT_BALANCE',
      'MARKET_CLOSED',
      'PRODUCT_MAINTENANCE',
      'QUOTE_STALE',
      'RATE_CHANGED',
      'EXPIRY_TOO_SOON',
    ],
    429: ['RATE_LIMITED'],
  },
});

export const listOrders = endpoint({
  method: 'get',
  path: '/orders',
  operationId: 'orders',
  summary: "The user's orders",
  tag,
  caller: 'user',
  query: ordersQuery,
  responses: { 200: pageOf(orderDto) },
});

export const getOrder = endpoint({
  method: 'get',
  path: '/orders/:id',
  operationId: 'order',
  summary: "One of the user's orders",
  tag,
  caller: 'user',
  params: z.object({ id: z.string().regex(/^\d{1,18}$/, 'order id is a number') }),
  responses: { 200: orderDto },
  errors: { 404: ['NOT_FOUND'] },
});

export const sellOrder = endpoint({
  method: 'post',
  path: '/orders/:id/sell',
  operationId: 'sellOrder',
  summary:
    'Close an open order early at its published sell value, executed at the first tick recorded after the request is accepted',
  tag,
  caller: 'user',
  params: z.object({ id: z.string().regex(/^\d{1,18}$/, 'order id is a number') }),
  body: sellOrderBody,
  responses: { 200: orderDto },
  errors: {
    404: ['NOT_FOUND'],
    409: ['INVALID_STATE', 'SELL_NOT_ALLOWED', 'SELL_PRICE_CHANGED', 'QUOTE_STALE'],
    429: ['RATE_LIMITED'],
  },
});

export const unseenResults = endpoint({
  method: 'get',
  path: '/orders/results/unseen',
  operationId: 'unseenResults',
  summary: "The user's settled orders that no device has acknowledged yet, newest first",
  tag,
  caller: 'user',
  responses: { 200: unseenResultsDto },
});

export const resultsSeen = endpoint({
  method: 'post',
  path: '/orders/results/seen',
  operationId: 'resultsSeen',
  summary:
    "Acknowledge results (idempotent); the user's other devices are told by a `results` event",
  tag,
  caller: 'user',
  body: resultsSeenBody,
  responses: { 200: resultsSeenDto },
});

export const tradingStats = endpoint({
  method: 'get',
  path: '/orders/stats',
  operationId: 'tradingStats',
  summary:
    "The user's closed orders of one mode over the last days, in figures: win rate, stake, P&L, overall and by product, duration and day",
  tag,
  caller: 'user',
  query: statsQuery,
  responses: { 200: tradingStatsDto },
  errors: { 400: ['VALIDATION_FAILED'] },
});
