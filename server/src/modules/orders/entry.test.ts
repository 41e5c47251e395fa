import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Order } from '@shared/orders/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import {
  backdateOrder,
  expireOrder,
  fund,
  liveTick,
  publishMarket,
  recordTick,
  stoppedWorker,
} from '@tests/support/orders';
import { checkLedger, userBalances } from '../ledger/ledger';
import { startSettlementWorker } from './settlement.worker';

/**
 * The entry of DECISIONS.md, Orders: the first tick recorded after acceptance, filled in by the
 * settlement worker, or a void (NO_ENTRY_TICK) with the stake refunded. Each test trades on a
 * product of its own, so each tape holds only what its test writes.
 */
describe.each(dbDrivers())('order entries on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
    await publishMarket(api.bus, {
      XRPUSDT: 'open',
      DOGEUSDT: 'open',
      GBPUSD: 'open',
      USDJPY: 'open',
    });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const funded = async (amount = 100_000) => {
    const u = await registerUser(api, 'entrant');
    await fund(t.db, u.user.id, amount);
    return u;
  };
  const order = (productId: string, direction = 'up') => ({
    productId,
    direction,
    amount: 10_000,
    duration: 30,
  });
  const orderEvents = (id: string) =>
    api.userEvents.sent
      .filter((e) => e.event === 'order' && (e.payload as Order).id === id)
      .map((e) => e.payload as Order);
  const get = async (auth: Record<string, string>, id: string) =>
    (await api.http.get(`/api/orders/${id}`).set(auth).expect(200)).body as Order;

  it('enters at the first tick recorded after acceptance and tells the user', async () => {
    const u = await funded();
    // XRPUSDT's tape is this test's alone.
    const quote = await liveTick(t.db, api.bus, 'XRPUSDT', 6_000, Date.now(), 4);
    const o = (await api.http.post('/api/orders').set(u.auth).send(order('XRPUSDT')).expect(201))
      .body as Order;
    expect(o.entry).toBeNull();
    const worker = startSettlementWorker({
      db: t.db,
      orders: api.orders,
      userEvents: api.userEvents,
      balancesChanged: () => undefined,
      maxFeedDelayMs: 3000,
    });
    try {
      // Two ticks after acceptance in one tape write (as the tape writer writes a batch), the
      // later one first: the entry is still the first by time.
      const first = await t.db.transaction(async (tx) => {
        const later = await recordTick(tx, 'XRPUSDT', 6_020, Math.max(Date.now(), o.createdAt) + 5);
        const earlier = await recordTick(tx, 'XRPUSDT', 6_010, later.ts - 1);
        return earlier;
      });
      await vi.waitFor(() => expect(orderEvents(o.id).at(-1)?.entry).not.toBeNull(), {
        timeout: 10_000,
      });
      const entered = orderEvents(o.id).at(-1)!;
      expect(entered).toMatchObject({ status: 'open', entry: { seq: first.seq, ts: first.ts } });
      expect(entered.entry).toEqual({ seq: first.seq, ts: first.ts, price: '0.6010' });
      expect(entered.entry!.ts).toBeGreaterThan(o.createdAt);
      expect(entered.entry!.seq).not.toBe(quote.seq);
      expect(entered.expiresAt).toBe(o.expiresAt);
      expect(await get(u.auth, o.id)).toEqual(entered);
    } finally {
      await worker.stop();
    }
    // Once: a later pass writes no other entry and tells nobody again.
    await worker.entryBatch();
    expect(orderEvents(o.id).filter((e) => e.entry !== null)).toHaveLength(1);
  });

  it('gives a client who saw newer prices than the api nothing: the entry is the next tick, not the stale quote nor any tick already seen', async () => {
    const u = await funded();
    const t0 = Date.now();
    // The api's latest quote is 2 s old (its feed stalled); the tape and a faster gateway have
    // moved on: the price rose from 0.10000 to 0.12000, and the client saw it.
    const stale = await liveTick(t.db, api.bus, 'DOGEUSDT', 10_000, t0 - 2000, 5);
    const seen = [
      await recordTick(t.db, 'DOGEUSDT', 11_000, t0 - 1500),
      await recordTick(t.db, 'DOGEUSDT', 12_000, t0 - 50),
    ];
    expect(api.market.latestTick('DOGEUSDT')).toMatchObject({ seq: stale.seq });
    const o = (
      await api.http.post('/api/orders').set(u.auth).send(order('DOGEUSDT', 'up')).expect(201)
    ).body as Order;
    expect(o.entry).toBeNull();
    // The next tick after acceptance holds the price the client had already seen.
    const next = await recordTick(t.db, 'DOGEUSDT', 12_000, Math.max(Date.now(), o.createdAt) + 1);
    const worker = await stoppedWorker(t.db, api);
    await worker.entryBatch();
    const entered = await get(u.auth, o.id);
    expect(entered.entry).toEqual({ seq: next.seq, ts: next.ts, price: '0.12000' });
    expect([stale.seq, ...seen.map((s) => s.seq)]).not.toContain(entered.entry!.seq);
    expect(entered.entry!.ts).toBeGreaterThan(o.createdAt);

    // The price holds until expiry: a draw, the stake back. Had the entry been the api's
    // stale quote (0.10000), this order would have won a move bought after it had happened.
    const exit = await recordTick(t.db, 'DOGEUSDT', 12_000, next.ts + 1);
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(exit.ts));
    const expiry = await expireOrder(t.db, o.id, 0);
    await recordTick(t.db, 'DOGEUSDT', 12_500, expiry + 1);
    await worker.settleBatch();
    expect(await get(u.auth, o.id)).toMatchObject({
      status: 'draw',
      payout: 10_000,
      pnl: 0,
      entry: entered.entry,
      exit: { seq: exit.seq, price: '0.12000' },
    });
    expect(await userBalances(t.db, Number(u.user.id))).toMatchObject({
      available: 100_000,
      in_orders: 0,
    });
  });

  it('voids and refunds an order when no tick comes within the max feed delay after acceptance (NO_ENTRY_TICK)', async () => {
    const u = await funded();
    const id = Number(u.user.id);
    /** A fresh quote on the api's bus only: the product's tape holds just what this test writes. */
    const quoteOnly = async (productId: string, price: string) => {
      const tick = { id: productId, seq: 7_000_001, ts: Date.now(), price };
      await api.bus.publish({ type: 'tick', tick });
      await vi.waitFor(() => expect(api.market.latestTick(productId)?.seq).toBe(tick.seq));
    };
    const place = async (productId: string) =>
      (await api.http.post('/api/orders').set(u.auth).send(order(productId)).expect(201))
        .body as Order;
    const worker = await stoppedWorker(t.db, api);

    // GBPUSD: the first tick after acceptance comes 1 ms after the window: void at once.
    await quoteOnly('GBPUSD', '1.27000');
    const late = await place('GBPUSD');
    await recordTick(t.db, 'GBPUSD', 127_010, late.createdAt + 3001);
    // USDJPY: no tick follows at all: void once the window (3 s) and the grace (2 s) have passed
    // by the database clock, moved here by backdating the order instead of waiting.
    await quoteOnly('USDJPY', '151.230');
    const none = await place('USDJPY');
    await worker.entryBatch();
    expect(await get(u.auth, none.id)).toMatchObject({ status: 'open', entry: null });
    // 2.5 s of the 5 s: the steps between take milliseconds, so it is still undecided.
    await backdateOrder(t.db, none.id, 2_500);
    await worker.entryBatch();
    expect(await get(u.auth, none.id)).toMatchObject({ status: 'open', entry: null });
    await backdateOrder(t.db, none.id, 2_500);
    await worker.entryBatch();

    for (const o of [late, none]) {
      const voided = await get(u.auth, o.id);
      expect(voided).toMatchObject({
        status: 'void',
        voidReason: 'NO_ENTRY_TICK',
        entry: null,
        exit: null,
        payout: 10_000,
        pnl: 0,
      });
      expect(orderEvents(o.id).at(-1)).toEqual(voided);
    }
    expect(await userBalances(t.db, id)).toMatchObject({ available: 100_000, in_orders: 0 });
    const { rows } = await t.db.query<{ kind: string; n: number }>(
      `SELECT kind, count(*)::int AS n FROM transfers WHERE ref IN ($1, $2) GROUP BY kind`,
      [`settle:${late.id}`, `settle:${none.id}`],
    );
    expect(rows).toEqual([{ kind: 'order_refund', n: 2 }]);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
    // Final: a later pass finds nothing of theirs to decide, and no refund is paid twice.
    await worker.entryBatch();
    await worker.settleBatch();
    expect(orderEvents(late.id).filter((e) => e.status === 'void')).toHaveLength(1);
    expect(orderEvents(none.id).filter((e) => e.status === 'void')).toHaveLength(1);
  });
});
