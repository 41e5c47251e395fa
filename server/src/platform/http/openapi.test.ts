import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { KycStatus, User } from '@shared/accounts/model';
import type { MessageKind, OpsMessage } from '@shared/content/model';
import { errorCodes } from '@shared/errors';
import type { ProductCategory, ProductStatus, Tick } from '@shared/market/model';
import type { Direction, Order, OrderStatus, TickRef, TradeMode } from '@shared/orders/model';
import type { Product } from '@shared/product';
import type { SavingsRecord, SavingsRecordType } from '@shared/savings/model';
import type * as wallet from '@shared/wallet/model';
import { OPERATOR_TOKEN, buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { openTestDb, type TestDb } from '@tests/support/db';
import type * as dto from '@shared/contract/answers';
import { openApiDocument, openApiRoutes } from './openapi';

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { $ref?: string; name?: string; in?: string }[];
  responses: Record<string, { $ref?: string; content?: unknown }>;
}

// The routes declare themselves as an app mounts them (route.ts): one app, TEST_CLOCK on so its
// routes are there too, before the document is read; its calls are the last describe's.
const t: TestDb = await openTestDb('pglite');
const api: TestApi = await buildTestApi(t.db, { env: { TEST_CLOCK: '1' } });
const doc = openApiDocument();
const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Operation })),
);
const named = operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const);

/** Every `$ref` anywhere under `node`. */
function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) =>
    k === '$ref' && typeof v === 'string' ? [v] : refsIn(v),
  );
}

/** What a local `$ref` ("#/a/b") points at, or undefined. */
function resolve(pointer: string): unknown {
  const steps = pointer.slice(2).split('/');
  return steps.reduce<unknown>(
    (at, step) =>
      at && typeof at === 'object'
        ? (at as Record<string, unknown>)[step.replace(/~1/g, '/').replace(/~0/g, '~')]
        : undefined,
    doc,
  );
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1.0 with unique operationIds and every $ref resolving inside it', () => {
    expect(doc).toMatchObject({ openapi: '3.1.0', info: { title: 'Trade API', version: '1' } });
    expect(doc.servers).toEqual([{ url: '/' }]);
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.length).toBeGreaterThan(50);
    expect(new Set(ids).size).toBe(ids.length);
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\//);
      expect(resolve(ref), ref).toBeDefined();
    }
  });

  it.each(named)('%s declares each of its path parameters', (_, { path, op }) => {
    const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
    expect(declared.sort()).toEqual(inPath.sort());
  });

  it.each(named)('%s has a success answer and the shared error answer', (_, { op }) => {
    expect(Object.keys(op.responses).some((status) => /^2\d\d$/.test(status))).toBe(true);
    expect(op.responses.default).toEqual({ $ref: '#/components/responses/Error' });
    // 4xx are errors; a 5xx other than the default is an answer of its own (503 from /readyz).
    for (const [status, answer] of Object.entries(op.responses))
      if (/^4\d\d$/.test(status))
        expect(answer.content).toEqual({
          'application/json': { schema: { $ref: '#/components/schemas/Error' } },
        });
  });

  it('shares one error shape whose code is one of the contract codes', () => {
    const error = doc.components.schemas.Error as {
      properties: { error: { properties: { code: { enum: string[] } }; required: string[] } };
    };
    expect(error.properties.error.properties.code.enum).toEqual([...errorCodes]);
    expect(error.properties.error.required).toEqual(['code', 'message']);
  });

  it('names the two bearer schemes and uses only them', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'operator']);
    const used = operations.flatMap((o) => (o.op.security ?? []).flatMap((s) => Object.keys(s)));
    expect(new Set(used)).toEqual(new Set(['bearer', 'operator']));
    // Every operator route needs an operator credential, except signing in, which makes one.
    const ops = operations.filter(
      (o) => o.path.startsWith('/api/ops/') && o.op.operationId !== 'operatorLogin',
    );
    for (const o of ops) expect(o.op.security, o.path).toEqual([{ operator: [] }]);
    const signIn = operations.find((o) => o.op.operationId === 'operatorLogin');
    expect(signIn?.op.security).toBeUndefined();
  });

  it.each([
    '/api/auth/register/check',
    '/api/auth/register',
    '/api/auth/login',
    '/api/me',
    '/api/account/summary',
    '/api/market/products',
    '/api/market/candles',
    '/api/orders',
    '/api/orders/{id}',
    '/api/wallet/ledger',
    '/api/deposits',
    '/api/withdrawal-accounts',
    '/api/withdrawals',
    '/api/kyc',
    '/api/savings/in',
    '/api/messages/{id}/read',
    '/api/uploads/{id}',
    '/api/ops/deposits/{id}/approve',
    '/api/ops/products/{id}/maintenance',
    '/api/ops/ledger/check',
    '/api/openapi.json',
  ])('has the contract path %s', (path) => {
    expect(Object.keys(doc.paths)).toContain(path);
  });

  it('documents Idempotency-Key on the money-moving POSTs, multipart on uploads, pages on lists', () => {
    const op = (path: string, method: string) =>
      operations.find((o) => o.path === path && o.method === method)!.op;
    const key = { $ref: '#/components/parameters/IdempotencyKey' };
    for (const path of ['/api/orders', '/api/deposits', '/api/withdrawals', '/api/savings/in'])
      expect(op(path, 'post').parameters, path).toContainEqual(key);
    expect(JSON.stringify(op('/api/kyc', 'post'))).toContain('multipart/form-data');
    const list = op('/api/orders', 'get');
    expect(list.parameters?.map((p) => p.name)).toEqual(['status', 'mode', 'limit', 'cursor']);
    expect(JSON.stringify(list.responses['200'])).toContain('nextCursor');
  });

  // The answer types (Order, User, …) are z.infer of these schemas, so they cannot drift from
  // them; what can is what is still written by hand beside them and used as their parts.
  it('agrees with the types still written by hand in shared/ (a type test: tsc fails on drift)', () => {
    type Page = z.output<ReturnType<typeof dto.pageOf<typeof dto.orderDto>>>;
    expectTypeOf<Page>().toEqualTypeOf<wallet.Page<Order>>();
    expectTypeOf<Pick<Tick, 'seq' | 'ts' | 'price'>>().toEqualTypeOf<TickRef>();
    expectTypeOf<User['kyc']['status']>().toEqualTypeOf<KycStatus>();
    expectTypeOf<Product['status']>().toEqualTypeOf<ProductStatus>();
    expectTypeOf<Product['category']>().toEqualTypeOf<ProductCategory>();
    expectTypeOf<Order['mode']>().toEqualTypeOf<TradeMode>();
    expectTypeOf<Order['direction']>().toEqualTypeOf<Direction>();
    expectTypeOf<Order['status']>().toEqualTypeOf<OrderStatus>();
    expectTypeOf<wallet.Deposit['status']>().toEqualTypeOf<wallet.DepositStatus>();
    expectTypeOf<wallet.Withdrawal['status']>().toEqualTypeOf<wallet.WithdrawalStatus>();
    type Coin = Extract<wallet.WithdrawalAccount, { type: 'coin' }>;
    expectTypeOf<Coin['network']>().toEqualTypeOf<wallet.CoinNetwork>();
    expectTypeOf<SavingsRecord['type']>().toEqualTypeOf<SavingsRecordType>();
    expectTypeOf<OpsMessage['kind']>().toEqualTypeOf<MessageKind>();
  });
});

describe('GET /api/openapi.json', () => {
  it('serves the document to anyone, cacheable for five minutes', async () => {
    const app = express().use('/api', openApiRoutes());
    const res = await request(app).get('/api/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});

describe('every documented path is served', () => {
  let http: ReturnType<typeof request>;
  const tokens = { user: '', leaving: '' };
  /** The user the operator routes on users act on (freeze, end sessions): not the caller. */
  let targetUserId = '';
  /** What the api answers for a path it does not have: its catch-all 404. */
  let noSuchEndpoint: unknown;

  beforeAll(async () => {
    http = api.http;
    // app.ts serves the document itself, from the same builder.
    expect((await http.get('/api/openapi.json').expect(200)).body).toEqual(openApiDocument());
    tokens.user = (await registerUser(api)).token;
    tokens.leaving = (await registerUser(api)).token;
    targetUserId = (await registerUser(api)).user.id;
    noSuchEndpoint = (await http.get('/api/no/such/endpoint').expect(404)).body;
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const dummies: Record<string, string> = { id: '1', slug: 'about' };

  it.each(named)('%s', async (_, { path, method, op }) => {
    const url = path.replace(/\{(\w+)\}/g, (_m, name: string) =>
      path.startsWith('/api/ops/users/') ? targetUserId : (dummies[name] ?? '1'),
    );
    const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
    // The session ends with logout, so that call gets a session of its own.
    const user = op.operationId === 'logout' ? tokens.leaving : tokens.user;
    const token = schemes.includes('bearer')
      ? user
      : schemes.includes('operator') && OPERATOR_TOKEN;
    let req = http[method as 'get' | 'post' | 'put' | 'delete'](url);
    if (token) req = req.set('Authorization', `Bearer ${token}`);
    const res = method === 'get' || method === 'delete' ? await req : await req.send({});
    const unserved = path.startsWith('/api/')
      ? res.status === 404 && JSON.stringify(res.body) === JSON.stringify(noSuchEndpoint)
      : res.status === 404;
    expect(unserved, `${res.status} ${JSON.stringify(res.body)}`).toBe(false);
    // The documented credentials are enough to get past authentication.
    expect([401, 403], `${res.status} ${JSON.stringify(res.body)}`).not.toContain(res.status);
  });
});
