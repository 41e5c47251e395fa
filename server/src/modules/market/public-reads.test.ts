import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeCandles, type CandleUnits } from '@shared/aggregate';
import type { Candle } from '@shared/product';
import type { Db } from '@infra/db';
import { buildTestApi, newTestAddress, type TestApi } from '@tests/support/api';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { WEDNESDAY_AFTERNOON, seedTape } from '@tests/support/market';
import { CANDLE_READ_MAX, selectCandles, type CandleRow } from './market.repo';

const NOW = WEDNESDAY_AFTERNOON;

/**
 * `db` with every statement's text recorded in `seen`; candle reads first wait for `held()`
 * (a busy database: what a flood meets), so requests that arrive meanwhile find them running.
 */
function counting(db: Db, seen: string[], held: () => Promise<void>): Db {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'query')
        return async (sql: string, ...rest: unknown[]) => {
          seen.push(sql);
          if (/FROM candles/.test(sql)) await held();
          return (target.query as (...a: unknown[]) => unknown)(sql, ...rest);
        };
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

/** `count` GETs of `path` sent at once, each on a connection of its own; their statuses and bodies. */
async function atOnce(base: string, path: string, count: number) {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  try {
    return await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<{ status: number; body: string }>((resolve, reject) => {
            http
              .get(`${base}${path}`, { agent }, (res) => {
                let body = '';
                res.setEncoding('utf8');
                res.on('data', (c: string) => (body += c));
                res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
              })
              .on('error', reject);
          }),
      ),
    );
  } finally {
    agent.destroy();
  }
}

const candleQueries = (seen: string[]) => seen.filter((sql) => /FROM candles/.test(sql)).length;

describe.each(dbDrivers())('anonymous market reads on %s', (kind) => {
  let t: TestDb;
  const seen: string[] = [];
  let api: TestApi;
  let server: http.Server;
  let base: string;
  // Candle reads wait until `expected` requests have reached the server (none by default).
  let expected = 0;
  let arrived = 0;
  let release: () => void = () => undefined;
  let hold = Promise.resolve();
  const awaitRequests = (n: number) => {
    expected = n;
    arrived = 0;
    hold = new Promise<void>((r) => (release = r));
  };

  beforeAll(async () => {
    t = await openTestDb(kind);
    await seedTape(t.db, { at: NOW, hours: 3 });
    // Throttle off here: a thousand requests from one address are what the cache is about.
    api = await buildTestApi(
      counting(t.db, seen, () => hold),
      {
        now: () => NOW,
        env: { MARKET_READ_RATE: 'off' },
        // Reads are held open until every request has arrived, which on a busy machine takes
        // longer than production's 2 s wait in the gate: the gate's own test is its file's.
        publicReadGate: { concurrency: 1, queue: 1000, maxWaitMs: 60_000 },
      },
    );
    server = http.createServer(api.app);
    // After the last expected request is in (and its handler has asked the cache), the held
    // reads go on.
    server.on('request', () => {
      if (++arrived === expected) setTimeout(release, 50);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await api.close();
    await t.drop();
  });

  it('answers a thousand identical candle requests sent at once with one database query', async () => {
    seen.length = 0;
    awaitRequests(1000);
    const answers = await atOnce(
      base,
      '/api/market/candles?product=BTCUSDT&interval=1m&limit=1000',
      1000,
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect((JSON.parse(answers[0]!.body) as Candle[]).length).toBe(180);
    expect(candleQueries(seen)).toBe(1);
  });

  it('answers a thousand identical coarse ("now") requests with one roll-up and one small query', async () => {
    seen.length = 0;
    awaitRequests(1000);
    const answers = await atOnce(base, '/api/market/candles?product=ETHUSDT&interval=1h', 1000);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    // The finished hours (kept long) and the current one (at most an hour of minutes).
    expect(candleQueries(seen)).toBe(2);
  });

  it.each(['5m', '1h', '4h', '1d'])(
    'answers %s "now" from its two reads exactly as one read of the window',
    async (interval) => {
      for (const limit of [1, 2, 50]) {
        const res = await api.http
          .get('/api/market/candles')
          .query({ product: 'SOLUSDT', interval, limit })
          .expect(200);
        const direct = await api.market.candles({
          product: 'SOLUSDT',
          interval,
          limit,
          before: undefined,
        });
        expect(res.body, `${interval} × ${limit}`).toEqual(direct);
      }
    },
  );

  it('answers "now" with the current bucket too, while it is filling', async () => {
    // Half an hour before the tape's end: the current 1h bucket has 30 minutes.
    const half = await buildTestApi(t.db, { now: () => NOW - 30 * 60_000 });
    try {
      const res = await half.http
        .get('/api/market/candles')
        .query({ product: 'XAUUSD', interval: '1h', limit: 3 })
        .expect(200);
      const direct = await half.market.candles({
        product: 'XAUUSD',
        interval: '1h',
        limit: 3,
        before: undefined,
      });
      expect(res.body).toEqual(direct);
      expect((res.body as Candle[]).at(-1)!.t).toBe(NOW - 60 * 60_000);
    } finally {
      await half.close();
    }
  });

  it('reads a past window once and keeps it', async () => {
    seen.length = 0;
    const path = `/api/market/candles?product=BTCUSDT&interval=5m&limit=10&before=${NOW - 3_600_000}`;
    const first = await atOnce(base, path, 50);
    const again = await atOnce(base, path, 50);
    expect(new Set([...first, ...again].map((a) => a.body)).size).toBe(1);
    expect(candleQueries(seen)).toBe(1);
  });

  it('refuses a tape window over an hour with 400 naming from, before reading anything', async () => {
    seen.length = 0;
    const whole = await api.http
      .get('/api/market/ticks')
      .query({ product: 'BTCUSDT', from: 0, limit: 1000 })
      .expect(400);
    expect(whole.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'from' });
    expect(whole.body.error.message).toMatch(/60 minutes/);
    await api.http
      .get('/api/market/ticks')
      .query({ product: 'BTCUSDT', from: NOW - 3_600_001, to: NOW })
      .expect(400);
    expect(seen.filter((sql) => /FROM ticks/.test(sql))).toEqual([]);
    const hour = await api.http
      .get('/api/market/ticks')
      .query({ product: 'BTCUSDT', from: NOW - 3_600_000, to: NOW, limit: 1000 })
      .expect(200);
    expect(hour.body).toHaveLength(1000);
  });

  it('takes a fairness period as the longest tape window when periods are longer than an hour', async () => {
    const longPeriods = await buildTestApi(t.db, {
      now: () => NOW,
      env: { SIM_PERIOD_MINUTES: '120' },
    });
    try {
      await longPeriods.http
        .get('/api/market/ticks')
        .query({ product: 'BTCUSDT', from: NOW - 2 * 3_600_000, to: NOW })
        .expect(200);
      await longPeriods.http
        .get('/api/market/ticks')
        .query({ product: 'BTCUSDT', from: NOW - 2 * 3_600_000 - 1, to: NOW })
        .expect(400);
    } finally {
      await longPeriods.close();
    }
  });

  it('reads at most max.minutes minutes and max.hours hours, leaving out the buckets they do not reach whole', async () => {
    const units = (c: CandleRow): CandleUnits => ({ ...c, a: BigInt(c.a) });
    const minutes = (await selectCandles(t.db, 'BTCUSDT', 60_000, 1000, NOW)).map(units);
    expect(minutes).toHaveLength(180);
    // The shared aggregation of the 1-minute rows, the buckets from `from` on.
    const rolled = (ms: number, from = 0) => mergeCandles(minutes, ms).filter((c) => c.t >= from);
    const read = async (ms: number, before: number, max: { minutes: number; hours: number }) =>
      (await selectCandles(t.db, 'BTCUSDT', ms, 10, before, max)).map(units);
    const hour = 3_600_000;
    // 100 minutes reach back to 13:20: the 15-minute buckets from 13:30 on, each whole.
    expect(await read(900_000, NOW, { minutes: 100, hours: 0 })).toEqual(
      rolled(900_000, NOW - 100 * 60_000),
    );
    // The three hours before NOW are stored: two of them make the 1h candles of 13:00 and
    // 14:00, and leave out the 4h candle of 12:00-16:00, which three make whole.
    expect(await read(hour, NOW, { minutes: 100, hours: 2 })).toEqual(rolled(hour, NOW - 2 * hour));
    expect(await read(4 * hour, NOW + hour, { minutes: 100, hours: 2 })).toEqual([]);
    expect(await read(4 * hour, NOW + hour, { minutes: 100, hours: 3 })).toEqual(rolled(4 * hour));
    expect(await read(86_400_000, NOW + 9 * hour, CANDLE_READ_MAX)).toEqual(rolled(86_400_000));
  });
});

describe.each(dbDrivers())('the per-address throttle of market reads on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;

  beforeAll(async () => {
    t = await openTestDb(kind);
    await seedTape(t.db, { at: NOW, hours: 1 });
    api = await buildTestApi(t.db, { now: () => NOW, env: { MARKET_READ_RATE: '5/1s' } });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  it('refuses an address past its figure with 429, Retry-After and the wait, then serves it again', async () => {
    const from = { 'X-Forwarded-For': newTestAddress() };
    const paths = [
      '/api/market/products',
      '/api/market/products/BTCUSDT',
      '/api/market/candles?product=BTCUSDT&interval=1m',
      '/api/market/ticks?product=BTCUSDT',
      '/api/market/fairness?product=BTCUSDT',
    ];
    for (const path of paths) await api.http.get(path).set(from).expect(200);
    const refused = await api.http.get('/api/market/candles?product=BTCUSDT&interval=1m').set(from);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED' });
    const wait = refused.body.error.retryAfterMs as number;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1000);
    // Another address is not held back by this one.
    await api.http
      .get('/api/market/products')
      .set({ 'X-Forwarded-For': newTestAddress() })
      .expect(200);
    // Once the wait it was told has passed, the address is served again.
    await new Promise((r) => setTimeout(r, wait + 20));
    await api.http.get('/api/market/products').set(from).expect(200);
  });

  it('counts an IPv6 host by its /64', async () => {
    const host = (n: number) => ({ 'X-Forwarded-For': `2001:db8:77:1::${n}` });
    for (let i = 1; i <= 5; i++)
      await api.http.get('/api/market/products').set(host(i)).expect(200);
    await api.http.get('/api/market/products').set(host(99)).expect(429);
  });
});
