import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOrder } from '@shared/orders/audit';
import { CLOCK_MARGIN_MS, clockExpiries, type ClockExpiry } from '@shared/orders/clock-expiry';
import type { Order } from '@shared/orders/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import {
  backdateOrder,
  fund,
  liveTick,
  publishMarket,
  recordTick,
  stoppedWorker,
} from '@tests/support/orders';
import { advanceWatermark } from '@sim/tape.repo';
import { checkLedger } from '../ledger/ledger';

/** The default duration bands (market-sim's catalogue) and their rates. */
const BANDS = [
  { seconds: 30, rate: '0.80' },
  { seconds: 60, rate: '0.85' },
  { seconds: 120, rate: '0.88' },
  { seconds: 300, rate: '0.90' },
];

/** An instant `intoMinuteMs` into the current minute of the real clock (a refusal needs no DB). */
const inMinute = (intoMinuteMs: number) => () =>
  Math.floor(Date.now() / 60_000) * 60_000 + intoMinuteMs;

describe.each(dbDrivers())('orders at a clock time on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  let late: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { env: { ORDER_RATE: 'off' } });
    // A second api whose clock stands 45 s into the minute: "this minute" has 15 s left.
    late = await buildTestApi(t.db, { env: { ORDER_RATE: 'off' }, now: inMinute(45_000) });
    for (const a of [api, late]) await publishMarket(a.bus, { BTCUSDT: 'open', ETHUSDT: 'open' });
  });
  afterAll(async () => {
    await api.close();
    await late.close();
    await t.drop();
  });

  const funded = async (a: TestApi, amount = 100_000) => {
    const u = await registerUser(a, 'clock');
    await fund(t.db, u.user.id, amount);
    return u;
  };
  const body = (over: Record<string, unknown>) => ({
    productId: 'BTCUSDT',
    direction: 'up',
    amount: 10_000,
    ...over,
  });

  it('ends on the minute with at least 30 s left, its duration the time left and its rate the largest band not above it', async () => {
    const u = await funded(api);
    for (const expiry of clockExpiries) {
      await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
      const res = await api.http.post('/api/orders').set(u.auth).send(body({ expiry }));
      // "This minute" with under 31 s of it left is refused; the test then meets that rule.
      if (res.status === 409) {
        expect(expiry).toBe('minute_end');
        expect(res.body.error.code).toBe('EXPIRY_TOO_SOON');
        continue;
      }
      expect(res.status).toBe(201);
      const o = res.body as Order;
      const left = o.expiresAt - o.createdAt;
      expect(o.expiry).toBe(expiry);
      expect(o.expiresAt % 60_000).toBe(0);
      expect(left).toBeGreaterThanOrEqual(30_000);
      expect(left).toBeLessThanOrEqual(expiry === 'minute_end' ? 60_000 : 120_000);
      expect(o.duration).toBe(Math.floor(left / 1000));
      const band = BANDS.find((b) => b.rate === o.rate)!;
      expect(band.seconds * 1000).toBeLessThanOrEqual(left);
      // The largest: the next band up is longer than the time left was at the check (the check
      // runs a moment before acceptance; a whole second is allowed for it).
      const next = BANDS.find((b) => b.seconds > band.seconds);
      if (next) expect(next.seconds * 1000).toBeGreaterThan(left - CLOCK_MARGIN_MS - 1000);
    }
  });

  it('refuses "this minute" with less than 30 s left, before writing anything', async () => {
    const u = await funded(late);
    await liveTick(t.db, late.bus, 'BTCUSDT', 6_700_000);
    const res = await late.http
      .post('/api/orders')
      .set(u.auth)
      .send(body({ expiry: 'minute_end' }))
      .expect(409);
    expect(res.body.error).toMatchObject({ code: 'EXPIRY_TOO_SOON', field: 'expiry' });
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM orders WHERE user_id = $1',
      [u.user.id],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it.each([
    ['neither a duration nor an expiry', {}],
    ['both a duration and an expiry', { duration: 60, expiry: 'minute_end' }],
  ])('refuses %s (400 DURATION_INVALID)', async (_name, over) => {
    const u = await funded(api);
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
    const res = await api.http.post('/api/orders').set(u.auth).send(body(over)).expect(400);
    expect(res.body.error.code).toBe('DURATION_INVALID');
  });

  it.each([['end_of_day'], [''], [60], [null]])(
    'refuses an unknown expiry %j (400)',
    async (expiry: unknown) => {
      const u = await funded(api);
      const res = await api.http.post('/api/orders').set(u.auth).send(body({ expiry })).expect(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    },
  );

  it('settles on the tape at its minute, and the audit finds nothing to say', async () => {
    const u = await funded(api);
    await liveTick(t.db, api.bus, 'ETHUSDT', 300_000);
    const expiry: ClockExpiry = 'next_minute_end';
    const placed = (
      await api.http
        .post('/api/orders')
        .set(u.auth)
        .send(body({ productId: 'ETHUSDT', expiry }))
        .expect(201)
    ).body as Order;
    // Two whole minutes back (the expiry stays on a minute): no other test's tick is there.
    const { acceptedMs, expiresMs } = await backdateOrder(t.db, placed.id, 2 * 3_600_000);
    expect(expiresMs % 60_000).toBe(0);
    const entry = await recordTick(t.db, 'ETHUSDT', 300_000, acceptedMs + 100);
    const exit = await recordTick(t.db, 'ETHUSDT', 300_500, expiresMs - 200);
    await recordTick(t.db, 'ETHUSDT', 299_000, expiresMs + 1); // after expiry: not the exit
    await advanceWatermark(t.db, expiresMs + 1);
    const worker = await stoppedWorker(t.db, api);
    await worker.entryBatch();
    await worker.settleBatch();
    const o = (await api.http.get(`/api/orders/${placed.id}`).set(u.auth).expect(200))
      .body as Order;
    expect(o).toMatchObject({
      status: 'won',
      expiry,
      entry: { seq: entry.seq },
      exit: { seq: exit.seq },
    });
    const tape = [entry, exit].map((k) => ({
      seq: k.seq,
      ts: k.ts,
      price: (k.price / 100).toFixed(2),
    }));
    expect(auditOrder(o, tape, 3000).problems).toEqual([]);
    // A clock order whose record broke the rule is named by the audit.
    expect(auditOrder({ ...o, duration: o.duration + 1 }, tape, 3000).problems).toHaveLength(1);
    expect((await checkLedger(t.db)).problems).toEqual([]);
  });
});
