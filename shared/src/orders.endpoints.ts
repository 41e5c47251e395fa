import { z } from 'zod';
import { endpoint } from './contract/endpoint';
import { orderDto, pageOf } from './dto';
import { ordersQuery, placeOrderBody } from './orders';

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
