import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers } from '@tests/support/db';
import { sampleOf, type Caller, type Operation } from '@tests/support/fuzz';
import { FUZZ_SEED, jsonType, openFuzzWorld, type FuzzWorld } from '@tests/support/fuzz-world';
import { multipart, type RawAnswer, type RawRequest } from '@tests/support/raw-http';
import { bankDepositFields, images } from '@tests/support/wallet';
import { declaredRoutes, isPrivate, type Declared } from './route';

/**
 * No cache may keep an answer about who asks (issue 33, the security review's second finding).
 * The walk starts from the route registry (route.ts `declaredRoutes`, which the OpenAPI document
 * is made of), so a route added later is covered without touching this file: every guarded route
 * is called with valid credentials, and without any, and each answer, success or refusal, must
 * say `Cache-Control: no-store`. Public reads keep their caching.
 */
describe.each(dbDrivers())('private answers are never cacheable on %s', (kind) => {
  let w: FuzzWorld;
  let routes: Map<string, Declared>;
  /** The signed-in user's own deposit screenshot. */
  let ownUpload: string;
  beforeAll(async () => {
    w = await openFuzzWorld(kind);
    routes = new Map(declaredRoutes().map((r) => [r.operationId, r]));
    const res = await w.api.http
      .post('/api/deposits')
      .set(w.auth.user)
      .field(bankDepositFields(10_000))
      .attach('screenshot', images.png, 'shot.png')
      .expect(201);
    ownUpload = res.body.screenshotId as string;
  });
  afterAll(async () => {
    await w?.close();
  });

  const callersOf = (route: Declared): Caller[] =>
    route.auth?.who === 'userOrOperator'
      ? ['user', 'operator']
      : route.auth?.who === 'operator'
        ? ['operator']
        : ['user'];

  /** The operation with a well-formed request: sampled fields, a form with real images. */
  const requestOf = (op: Operation, caller: Caller, params: Record<string, string> = {}) => {
    const query = new URLSearchParams(w.baseQuery(op)).toString();
    const req: RawRequest = {
      method: op.method,
      path: w.urlOf(op, params, query),
      headers: { ...jsonType, ...(caller === 'anonymous' ? {} : w.headersFor(op, caller)) },
    };
    if (op.form) {
      const fields = Object.entries(sampleOf(op.form.fields, FUZZ_SEED) as object).map(
        ([name, value]) => ({ name, value: String(value) }),
      );
      const form = multipart([
        ...fields,
        ...op.form.files.map((name) => ({ name, file: images.png })),
      ]);
      req.headers = { ...req.headers, 'content-type': form.type };
      req.body = form.body;
    } else if (op.method !== 'GET') req.body = JSON.stringify(w.sampleBody(op));
    return req;
  };

  const cacheControl = (a: RawAnswer) => a.headers['cache-control'];

  it('walks every declared route, and every guarded one is in the document', () => {
    const documented = new Set(w.ops.map((o) => o.id));
    const guarded = [...routes.values()].filter((r) => r.auth);
    expect(guarded.length).toBeGreaterThan(60);
    expect(guarded.filter((r) => !documented.has(r.operationId)).map((r) => r.operationId)).toEqual(
      [],
    );
  });

  it('every guarded route answers no-store to the right caller, success and refusal alike', async () => {
    const guarded = w.ops.filter((op) => routes.get(op.id)?.auth);
    // Reads first, while the session and the data they read are as set up; then changes, the
    // operators' last (one may freeze the user or end sessions), signing out at the very end.
    const rank = (op: Operation) =>
      op.id === 'logout' || op.id === 'operatorLogout'
        ? 3
        : op.method === 'GET'
          ? 0
          : op.path.startsWith('/api/ops/')
            ? 2
            : 1;
    const ordered = [...guarded].sort((a, b) => rank(a) - rank(b));
    const wrong: string[] = [];
    const statuses = new Map<string, number>();
    for (const op of ordered)
      for (const caller of callersOf(routes.get(op.id)!)) {
        const params: Record<string, string> = op.id === 'upload' ? { id: ownUpload } : {};
        const a = await w.server.send(requestOf(op, caller, params));
        statuses.set(`${caller} ${op.id}`, a.status);
        if (a.status >= 500 || cacheControl(a) !== 'no-store')
          wrong.push(`${caller} ${op.method} ${op.path}: ${a.status} ${cacheControl(a)}`);
      }
    expect(wrong).toEqual([]);
    // The answers the review named are real successes, not only refusals.
    for (const id of [
      'user me',
      'user accountSummary',
      'user kyc',
      'user fundRecords',
      'user upload',
      'operator upload',
      'operator reviewDeposits',
      'operator reviewKyc',
      'operator opsDashboard',
    ])
      expect(statuses.get(id), id).toBe(200);
    // Most reads succeed with sampled input; every answer above was checked either way.
    const reads = [...statuses].filter(([, s]) => s === 200).length;
    expect(reads).toBeGreaterThan(30);
  });

  it('a guarded route refuses a caller without credentials with 401 no-store', async () => {
    const wrong: string[] = [];
    for (const op of w.ops.filter((o) => routes.get(o.id)?.auth)) {
      const a = await w.server.send(requestOf(op, 'anonymous'));
      if (a.status !== 401 || cacheControl(a) !== 'no-store')
        wrong.push(`${op.method} ${op.path}: ${a.status} ${cacheControl(a)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers to sign-in and registration carry no-store too (they hold a token)', async () => {
    for (const id of ['login', 'register', 'registerCheck', 'operatorLogin']) {
      const op = w.ops.find((o) => o.id === id)!;
      expect(isPrivate(routes.get(id)!), id).toBe(true);
      const a = await w.server.send(requestOf(op, 'anonymous'));
      expect(cacheControl(a), id).toBe('no-store');
    }
  });

  it('public reads keep their caching', async () => {
    const publicReads = w.ops.filter((op) => !isPrivate(routes.get(op.id)!));
    expect(publicReads.map((o) => o.id)).toEqual(
      expect.arrayContaining(['appInfo', 'products', 'candles', 'news', 'openApi']),
    );
    for (const op of publicReads) {
      const a = await w.server.send(requestOf(op, 'anonymous'));
      expect(cacheControl(a) ?? '', op.id).not.toMatch(/no-store/);
    }
    const doc = await w.server.send({ method: 'GET', path: '/api/openapi.json' });
    expect(cacheControl(doc)).toBe('public, max-age=300');
  });
});
