import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { endpoint, route, type AnswerOf, type InputOf } from '@shared/contract/endpoint';
import type * as endpoints from '@shared/orders/endpoints';
import type { Order, PlaceOrderBody } from '@shared/orders/model';
import type { Page } from '@shared/wallet/model';
import { guard } from './auth';
import { errorHandler } from './error-handler';
import { serve } from './serve';

const echo = endpoint({
  method: 'post',
  path: '/things/:id',
  operationId: 'serveTestEcho',
  summary: 'A test endpoint',
  tag: 'Test',
  params: z.object({ id: z.string().regex(/^\d+$/) }),
  query: z.object({ n: z.coerce.number().int().default(1) }),
  body: z.object({ word: z.string() }),
  responses: { 200: z.object({ id: z.string(), n: z.number(), word: z.string() }) },
});

function app(answer: (input: { id: string; n: number; word: string }) => unknown) {
  const a = express();
  a.use(express.json());
  const r = express.Router();
  serve(r, echo, undefined, ({ params, query, body }) =>
    Promise.resolve(
      answer({ id: params.id, n: query.n, word: body.word }) as AnswerOf<typeof echo>,
    ),
  );
  a.use(r);
  a.use(errorHandler(pino({ level: 'silent' })));
  return a;
}

describe('serve: an endpoint mounted with its inputs parsed once and its answer checked', () => {
  it('gives the handler the parsed params, query (defaults filled, coerced) and body', async () => {
    const res = await request(app((x) => x))
      .post('/things/7?n=3')
      .send({ word: 'hi' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: '7', n: 3, word: 'hi' });
    const defaulted = await request(app((x) => x))
      .post('/things/7')
      .send({ word: 'hi' });
    expect(defaulted.body.n).toBe(1);
  });

  it('refuses bad input with 400 VALIDATION_FAILED naming the field, before the handler', async () => {
    let called = 0;
    const a = app((x) => (called++, x));
    const res = await request(a).post('/things/x').send({ word: 'hi' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'id' });
    const body = await request(a).post('/things/7').send({ word: 5 });
    expect(body.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'word' });
    expect(called).toBe(0);
  });

  it('fails a request whose answer is outside the contract (tests and development)', async () => {
    const res = await request(app((x) => ({ ...x, n: 'three' })))
      .post('/things/7')
      .send({
        word: 'hi',
      });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('INTERNAL');
  });

  it("refuses a guard that is not for the endpoint's caller", () => {
    const userOnly = guard('user', (_req, _res, next) => next());
    expect(() =>
      serve(express.Router(), echo, userOnly, () => Promise.resolve(null as never)),
    ).toThrow(/serveTestEcho: a guard for user/);
  });

  it("types the clients' inputs and answers by the endpoint's schemas", () => {
    type Place = typeof endpoints.placeOrder;
    expectTypeOf<AnswerOf<Place>>().toEqualTypeOf<Order>();
    expectTypeOf<AnswerOf<typeof endpoints.listOrders>>().toEqualTypeOf<Page<Order>>();
    expectTypeOf<PlaceOrderBody>().toExtend<InputOf<Place>['body']>();
    // A route whose method, path or idempotency differs from its endpoint's does not compile.
    // @ts-expect-error the path is not the endpoint's
    route<Place>('post', '/order', true);
    // @ts-expect-error placing an order takes an Idempotency-Key
    route<Place>('post', '/orders');
  });
});
