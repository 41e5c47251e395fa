import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@shared/content/model';
import type { Order } from '@shared/orders/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, OPERATOR_TOKEN, registerUser, type TestApi } from '@tests/support/api';
import {
  backdateOrder,
  fund,
  liveTick,
  publishMarket,
  recordTick,
  stoppedWorker,
} from '@tests/support/orders';
import { advanceWatermark, insertTicks } from '@sim/tape.repo';
import { checkLedger, userBalances } from '../ledger/ledger';

describe.each(dbDrivers())('timed orders on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    // The order throttle off: these tests send one user's orders 50 at once to test the ledger
    // and the placement queue; the throttle has its own tests (order-throttle.test.ts).
    api = await buildTestApi(t.db, { env: { ORDER_RATE: 'off' } });
    // Products open, as on a weekday afternoon; ticks below are fresh by the real clock.
    await publishMarket(api.bus, {
      BTCUSDT: 'open',
      ETHUSDT: 'open',
      SOLUSDT: 'open',
      DOGEUSDT: 'open',
      XRPUSDT: 'open',
      EURUSD: 'open',
      US500: 'closed',
      XAUUSD: 'maintenance',
    });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const funded = async (amount = 100_000) => {
    const u = await registerUser(api, 'trader');
    await fund(t.db, u.user.id, amount);
    return u;
  };
  const order = (over: Record<string, unknown> = {}) => ({
    productId: 'BTCUSDT',
    direction: 'up',
    amount: 10_000,
    duration: 30,
    ...over,
  });
  const orderEvents = (id: string) =>
    api.userEvents.sent
      .filter((e) => e.event === 'order' && (e.payload as Order).id === id)
      .map((e) => e.payload as Order);

  it('accepts an order on a fresh quote, without an entry yet, and moves the stake into the order', async () => {
    const u = await funded();
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
    const res = await api.http
      .post('/api/orders')
      .set(u.auth)
      .send(order({ rate: '0.80' }))
      .expect(201);
    const o = res.body as Order;
    expect(o).toMatchObject({
      productId: 'BTCUSDT',
      direction: 'up',
      amount: 10_000,
      duration: 30,
      rate: '0.80',
      status: 'open',
      entry: null,
      exit: null,
      payout: null,
    });
    // Expiry = acceptance + duration, fixed now: the countdown starts at once.
    expect(o.expiresAt - o.createdAt).toBe(30_000);
    expect(await userBalances(t.db, Number(u.user.id))).toMatchObject({
      available: 90_000,
      in_orders: 10_000,
    });
    expect(orderEvents(o.id)).toEqual([o]);
    const got = await api.http.get(`/api/orders/${o.id}`).set(u.auth).expect(200);
    expect(got.body).toEqual(o);
  });

  it.each([
    [{ duration: 45 }, 400, 'DURATION_INVALID'],
    [{ amount: 999 }, 400, 'AMOUNT_OUT_OF_RANGE'],
    [{ amount: 5_000_001 }, 400, 'AMOUNT_OUT_OF_RANGE'],
    [{ amount: 1000.5 }, 400, 'VALIDATION_FAILED'],
    [{ amount: -1000 }, 400, 'VALIDATION_FAILED'],
    [{ amount: '1000' }, 400, 'VALIDATION_FAILED'],
    [{ direction: 'sideways' }, 400, 'VALIDATION_FAILED'],
    [{ rate: '0.90' }, 409, 'RATE_CHANGED'],
    [{ productId: 'US500' }, 409, 'MARKET_CLOSED'],
    [{ productId: 'XAUUSD' }, 409, 'PRODUCT_MAINTENANCE'],
    [{ productId: 'ETHUSDT' }, 409, 'QUOTE_STALE'],
    [{ productId: 'NOPE' }, 404, 'NOT_FOUND'],
    [{ amount: 200_000 }, 409, 'INSUFFICIENT_BALANCE'],
  ])('refuses %j with %i %s and writes nothing', async (over, status, code) => {
    const u = await funded();
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
    const res = await api.http.post('/api/orders').set(u.auth).send(order(over)).expect(status);
    expect(res.body).toMatchObject({ error: { code } });
    expect(await userBalances(t.db, Number(u.user.id))).toMatchObject({
      available: 100_000,
      in_orders: 0,
    });
    expect((await api.http.get('/api/orders').set(u.auth)).body.items).toEqual([]);
  });

  it('refuses a quote older than the max feed delay', async () => {
    const u = await funded();
    await liveTick(t.db, api.bus, 'EURUSD', 108_500, Date.now() - 3_500, 5);
    const res = await api.http
      .post('/api/orders')
      .set(u.auth)
      .send(order({ productId: 'EURUSD' }))
      .expect(409);
    expect(res.body).toMatchObject({ error: { code: 'QUOTE_STALE' } });
  });

  it('accepts exactly one of 50 concurrent orders that each want the whole balance', async () => {
    const u = await funded(10_000);
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
    // The feed stays live while the 50 are placed: on a loaded machine they can take longer than
    // the max feed delay (3 s), and a stale quote is not what this test is about.
    const feed = setInterval(() => void liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000), 1_000);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api.http.post('/api/orders').set(u.auth).send(order())),
    ).finally(() => clearInterval(feed));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(
      answers.filter((r) => r.status === 409 && r.body.error.code === 'INSUFFICIENT_BALANCE'),
    ).toHaveLength(49);
    expect(await userBalances(t.db, Number(u.user.id))).toMatchObject({
      available: 0,
      in_orders: 10_000,
    });
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });

  it('replays an idempotent placement and refuses the key with another body', async () => {
    const u = await funded();
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
    const first = await api.http
      .post('/api/orders')
      .set(u.auth)
      .set('Idempotency-Key', 'k-1')
      .send(order())
      .expect(201);
    const again = await api.http
      .post('/api/orders')
      .set(u.auth)
      .set('Idempotency-Key', 'k-1')
      .send(order())
      .expect(201);
    expect(again.body).toEqual(first.body);
    expect(await userBalances(t.db, Number(u.user.id))).toMatchObject({ available: 90_000 });
    const other = await api.http
      .post('/api/orders')
      .set(u.auth)
      .set('Idempotency-Key', 'k-1')
      .send(order({ amount: 20_000 }))
      .expect(422);
    expect(other.body).toMatchObject({ error: { code: 'IDEMPOTENCY_MISMATCH' } });
    await api.http
      .post('/api/orders')
      .set(u.auth)
      .set('Idempotency-Key', 'x'.repeat(256))
      .send(order())
      .expect(400);
  });

  it('places one order for the same Idempotency-Key sent five times at once, and answers each with it', async () => {
    const u = await funded();
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        api.http.post('/api/orders').set(u.auth).set('Idempotency-Key', 'k-burst').send(order()),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(answers.map((r) => (r.body as Order).id));
    expect(ids.size).toBe(1);
    expect(await userBalances(t.db, Number(u.user.id))).toMatchObject({
      available: 90_000,
      in_orders: 10_000,
    });
    expect((await api.http.get('/api/orders').set(u.auth)).body.items).toHaveLength(1);
    expect(orderEvents([...ids][0]!)).toHaveLength(1);
  });

  it('keeps orders private: another user gets 404, anonymous 401', async () => {
    const a = await funded();
    const b = await funded();
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
    const o = (await api.http.post('/api/orders').set(a.auth).send(order()).expect(201))
      .body as Order;
    await api.http.get(`/api/orders/${o.id}`).set(b.auth).expect(404);
    await api.http.get(`/api/orders/${o.id}`).expect(401);
    await api.http.get('/api/orders/abc').set(a.auth).expect(400);
    await api.http.get('/api/orders/99999999').set(a.auth).expect(404);
  });

  it('settles as soon as the tape is complete through the expiry (its watermark), without a later tick', async () => {
    const u = await funded(100_000);
    // EURUSD's tape is this test's alone.
    await liveTick(t.db, api.bus, 'EURUSD', 108_500, Date.now(), 5);
    const placed = (
      await api.http
        .post('/api/orders')
        .set(u.auth)
        .send(order({ productId: 'EURUSD', direction: 'down' }))
        .expect(201)
    ).body as Order;
    // Expired just now: the grace (2 s) has not passed, and no tick after the expiry exists.
    const { acceptedMs, expiresMs } = await backdateOrder(t.db, placed.id, 30_000);
    await recordTick(t.db, 'EURUSD', 108_500, acceptedMs + 100);
    await recordTick(t.db, 'EURUSD', 108_490, expiresMs);
    const worker = await stoppedWorker(t.db, api);
    const get = async () =>
      (await api.http.get(`/api/orders/${placed.id}`).set(u.auth).expect(200)).body as Order;
    // The writer's watermark short of the expiry: a tick at or before it may still come. (These
    // rounds run within milliseconds of the expiry, far inside the 2 s grace.)
    await advanceWatermark(t.db, expiresMs - 1);
    await worker.entryBatch();
    expect(await worker.settleBatch()).toBe(0);
    expect(await get()).toMatchObject({ status: 'open', entry: { price: '1.08500' } });
    // Complete through the expiry: the last tick at or before it is the exit, final now.
    await advanceWatermark(t.db, expiresMs);
    expect(await worker.settleBatch()).toBe(1);
    expect(await get()).toMatchObject({ status: 'won', exit: { price: '1.08490' } });
  });

  it('exits at the last tick at or before expiry, of several at that time the last recorded (seq)', async () => {
    const u = await funded(100_000);
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
    const placed = (await api.http.post('/api/orders').set(u.auth).send(order()).expect(201))
      .body as Order;
    // An hour back: no other test's tick lies in this order's window.
    const { acceptedMs, expiresMs } = await backdateOrder(t.db, placed.id, 3_630_000);
    const tick = (seq: number, ts: number, price: number) => ({
      productId: 'BTCUSDT',
      seq,
      ts,
      price,
      qty: 1,
    });
    // Written out of seq order: the tape's order is (ts, seq), not the order rows were written in.
    await insertTicks(t.db, [
      tick(9_000_003, expiresMs - 200, 6_700_300),
      tick(9_000_001, acceptedMs + 100, 6_700_000),
      tick(9_000_004, expiresMs - 200, 6_699_900),
      tick(9_000_002, expiresMs - 900, 6_700_200),
      tick(9_000_005, expiresMs + 1, 6_800_000),
    ]);
    const worker = await stoppedWorker(t.db, api);
    expect(await worker.settleBatch()).toBe(0); // the stopped worker's round settled it
    const got = (await api.http.get(`/api/orders/${placed.id}`).set(u.auth).expect(200))
      .body as Order;
    expect(got).toMatchObject({
      status: 'lost',
      entry: { seq: 9_000_001, ts: acceptedMs + 100, price: '67000.00' },
      exit: { seq: 9_000_004, ts: expiresMs - 200, price: '66999.00' },
    });
  });

  it('settles at the tape: win, loss, draw and void, each exactly once, with P&L', async () => {
    const u = await funded(100_000);
    const id = Number(u.user.id);
    // SOLUSDT's tape is this test's alone (other tests tick BTCUSDT at 'now').
    await liveTick(t.db, api.bus, 'SOLUSDT', 6_700_000, Date.now(), 3);
    const place = async (direction: string) =>
      (
        (
          await api.http
            .post('/api/orders')
            .set(u.auth)
            .send(order({ direction, productId: 'SOLUSDT' }))
        ).body as Order
      ).id;
    const [win, loss, draw, stale] = [
      await place('up'),
      await place('up'),
      await place('down'),
      await place('up'),
    ];
    // Each order moved back in time, expiries 10 s apart, so each order's tape is its own: its
    // entry 100 ms after acceptance at 6 700.000, its exit `exitAgeMs` before expiry.
    const tapeAt = async (
      orderId: string,
      expiredAgoMs: number,
      exitUnits: number,
      exitAgeMs: number,
    ) => {
      const { acceptedMs, expiresMs } = await backdateOrder(t.db, orderId, 30_000 + expiredAgoMs);
      const entry = await recordTick(t.db, 'SOLUSDT', 6_700_000, acceptedMs + 100);
      await recordTick(t.db, 'SOLUSDT', exitUnits, expiresMs - exitAgeMs);
      return entry;
    };
    const entries = [
      await tapeAt(win, 40_000, 6_700_100, 100),
      await tapeAt(loss, 30_000, 6_699_900, 100),
      await tapeAt(draw, 20_000, 6_700_000, 100),
      await tapeAt(stale, 10_000, 6_800_000, 5_000),
    ];
    await recordTick(t.db, 'SOLUSDT', 6_700_050, Date.now() + 10); // a tick after every expiry
    const worker = await stoppedWorker(t.db, api);
    expect(await worker.settleBatch()).toBe(0); // nothing left: a second pass settles nothing
    const get = async (oid: string) =>
      (await api.http.get(`/api/orders/${oid}`).set(u.auth)).body as Order;
    // One round of the worker entered every order at its own tick, then settled it.
    for (const [i, oid] of [win, loss, draw, stale].entries())
      expect((await get(oid)).entry).toEqual({
        seq: entries[i]!.seq,
        ts: entries[i]!.ts,
        price: '6700.000',
      });
    expect(await get(win)).toMatchObject({
      status: 'won',
      payout: 18_000,
      pnl: 8_000,
      exit: { price: '6700.100' },
    });
    expect(await get(loss)).toMatchObject({ status: 'lost', payout: 0, pnl: -10_000 });
    expect(await get(draw)).toMatchObject({ status: 'draw', payout: 10_000, pnl: 0 });
    expect(await get(stale)).toMatchObject({
      status: 'void',
      payout: 10_000,
      voidReason: 'FEED_STALE',
    });
    expect(await userBalances(t.db, id)).toMatchObject({
      available: 100_000 - 40_000 + 18_000 + 10_000 + 10_000,
      in_orders: 0,
    });
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
    const closed = (await api.http.get('/api/orders?status=closed').set(u.auth)).body
      .items as Order[];
    expect(closed.map((o) => o.id).sort()).toEqual([win, loss, draw, stale].sort());
    expect((await api.http.get('/api/orders?status=open').set(u.auth)).body.items).toEqual([]);

    // Each result is also a message, written with it (there after the app was closed), once,
    // and announced on the user's sockets.
    const messages = (await api.http.get('/api/messages').set(u.auth).expect(200)).body
      .items as Message[];
    const results = messages.filter((m) => m.kind.startsWith('order_'));
    expect(
      results.map((m) => [m.params.ref, m.kind, m.params.amount, m.params.payout]).sort(),
    ).toEqual(
      [
        [win, 'order_won', 10_000, 18_000],
        [loss, 'order_lost', 10_000, 0],
        [draw, 'order_draw', 10_000, 10_000],
        [stale, 'order_void', 10_000, 10_000],
      ].sort(),
    );
    expect(results.find((m) => m.kind === 'order_void')!.params).toMatchObject({
      product: 'SOLUSDT',
      reason: 'FEED_STALE',
    });
    const announced = api.userEvents.sent.filter(
      (e) => e.userId === u.user.id && e.event === 'message',
    );
    expect(announced.map((e) => (e.payload as { id: string }).id).sort()).toEqual(
      results.map((m) => m.id).sort(),
    );

    // The operators' dashboard counts the void against its product's feed.
    const board = (
      await api.http
        .get('/api/ops/dashboard')
        .set({ authorization: `Bearer ${OPERATOR_TOKEN}` })
        .expect(200)
    ).body as { feed: { productId: string; settled: number; voids: Record<string, number> }[] };
    expect(board.feed.find((f) => f.productId === 'SOLUSDT')).toMatchObject({
      settled: 4,
      voids: { FEED_STALE: 1, NO_ENTRY_TICK: 0 },
    });
    expect(board.feed).toHaveLength(12);
  });
});
