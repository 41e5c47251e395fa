import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import type { Db } from '@infra/db';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { fund, liveTick, publishMarket } from '@tests/support/orders';
import { userBalances } from '../ledger/ledger';

/** `db` with the text of every statement it runs recorded in `seen`. */
function recording(db: Db, seen: string[]): Db {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'query')
        return (sql: string, ...rest: unknown[]) => {
          seen.push(sql);
          return (target.query as (...a: unknown[]) => unknown)(sql, ...rest);
        };
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

/**
 * The per-user order throttle (issue 33) through the API. Figures of these tests: a burst of 10,
 * then one every 2 s (ORDER_RATE=0.5), so a test's own pace never refills the bucket in time to
 * blur the limit; the production figures (10, then 5 a second) and a human pace are the token
 * buckets' own tests (platform/token-bucket.contract.ts).
 */
describe.each(dbDrivers())('the order throttle on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  const seen: string[] = [];
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(recording(t.db, seen), {
      env: { ORDER_BURST: '10', ORDER_RATE: '0.5' },
    });
    await publishMarket(api.bus, { BTCUSDT: 'open', ETHUSDT: 'open' });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const trader = async () => {
    const u = await registerUser(api, 'fast');
    await fund(t.db, u.user.id, 1_000_000);
    return u;
  };
  const order = (over: Record<string, unknown> = {}) => ({
    productId: 'BTCUSDT',
    direction: 'up',
    amount: 1_000,
    duration: 30,
    ...over,
  });
  const fresh = () => liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
  const place = (auth: Record<string, string>, body = order(), key?: string) => {
    const req = api.http.post('/api/orders').set(auth);
    if (key) void req.set('Idempotency-Key', key);
    return req.send(body);
  };
  /** Places `n` orders one after another, each answered 201. */
  const placeMany = async (auth: Record<string, string>, n: number, body = order()) => {
    for (let i = 0; i < n; i++) await place(auth, body).expect(201);
  };

  it('refuses an order past the burst with 429, Retry-After and the wait, writing nothing; then takes it', async () => {
    const u = await trader();
    await fresh();
    await placeMany(u.auth, 10);
    const before = await userBalances(t.db, Number(u.user.id));
    seen.length = 0;
    const refused = await place(u.auth).expect(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.body.error.message).toMatch(/^Too many orders; try again in \d+ s$/);
    const wait = refused.body.error.retryAfterMs as number;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(2_000);
    expect(refused.headers['retry-after']).toBe(String(Math.ceil(wait / 1000)));
    // Refused before any of the placement's work: the session was looked up, nothing else.
    expect(seen.filter((sql) => !/FROM sessions|sessions s/i.test(sql))).toEqual([]);
    expect(await userBalances(t.db, Number(u.user.id))).toEqual(before);
    // Once the wait it was told has passed, the next order is taken.
    await new Promise((r) => setTimeout(r, wait));
    await fresh();
    await place(u.auth).expect(201);
  });

  it("never holds one user back for another's orders", async () => {
    const [a, b] = [await trader(), await trader()];
    await fresh();
    await placeMany(a.auth, 10);
    await place(a.auth).expect(429);
    await placeMany(b.auth, 10);
  });

  it('counts practice orders with real ones, and limits practice resets too', async () => {
    const u = await trader();
    await fresh();
    await placeMany(u.auth, 5);
    await placeMany(u.auth, 5, order({ mode: 'practice', amount: 1_000 }));
    const practice = await place(u.auth, order({ mode: 'practice' })).expect(429);
    expect(practice.body.error.code).toBe('RATE_LIMITED');

    // Resets: three at once, then one every 10 s (the practice order above is still open, so
    // a reset that passes the throttle is refused for that: what matters is which answer).
    const resets = [];
    for (let i = 0; i < 4; i++) resets.push(await api.http.post('/api/practice/reset').set(u.auth));
    expect(resets.map((r) => r.status)).toEqual([409, 409, 409, 429]);
    expect(resets[3]!.body.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(resets[3]!.headers['retry-after'])).toBeGreaterThanOrEqual(9);
    expect(resets[3]!.body.error.retryAfterMs).toBeGreaterThan(9_000);
  });

  it('lets a practice reset through on its own figure for another user', async () => {
    const u = await trader();
    await api.http.get('/api/account/summary').set(u.auth).expect(200); // opens practice
    for (let i = 0; i < 3; i++) await api.http.post('/api/practice/reset').set(u.auth).expect(200);
    await api.http.post('/api/practice/reset').set(u.auth).expect(429);
  });

  it('answers a throttled retry of a placed order from its Idempotency-Key', async () => {
    const u = await trader();
    await fresh();
    const first = await place(u.auth, order(), 'retry-me').expect(201);
    await placeMany(u.auth, 9);
    await place(u.auth).expect(429);
    // The same key and body: the stored answer, though the throttle is closed.
    const again = await place(u.auth, order(), 'retry-me').expect(201);
    expect(again.body).toEqual(first.body);
    // A key never used: refused like any other order; the key with another body: 422.
    await place(u.auth, order(), 'never-placed').expect(429);
    const other = await place(u.auth, order({ amount: 2_000 }), 'retry-me').expect(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_MISMATCH');
    expect(((await api.http.get('/api/orders').set(u.auth)).body.items as Order[]).length).toBe(10);
  });

  it('spends no token on an order refused for its input', async () => {
    const u = await trader();
    await fresh();
    for (let i = 0; i < 10; i++) await place(u.auth, order({ amount: 'ten' })).expect(400);
    await placeMany(u.auth, 10);
  });
});

describe.each(dbDrivers())('ORDER_RATE=off on %s', (kind) => {
  it('places as many orders at once as the balance allows (benchmarks, load tests)', async () => {
    const t = await openTestDb(kind);
    // One tick stands for the feed: on a loaded machine 30 placements on PGlite can outlast the
    // default staleness window (409 QUOTE_STALE for the last ones), which is not what this tests.
    const api = await buildTestApi(t.db, {
      env: { ORDER_RATE: 'off', MAX_FEED_DELAY_MS: '60000' },
    });
    try {
      await publishMarket(api.bus, { BTCUSDT: 'open' });
      const u = await registerUser(api, 'bench');
      await fund(t.db, u.user.id, 1_000_000);
      await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
      const answers = await Promise.all(
        Array.from({ length: 30 }, () =>
          api.http.post('/api/orders').set(u.auth).send({
            productId: 'BTCUSDT',
            direction: 'up',
            amount: 1_000,
            duration: 30,
          }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(30).fill(201));
    } finally {
      await api.close();
      await t.drop();
    }
  });
});
