import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import { sellValue } from '@shared/orders/sell-value';
import { findProduct } from '@sim/index';
import { checkLedger } from '@server/modules/ledger/ledger';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { expireOrder, fund, liveTick, publishMarket, stoppedWorker } from '@tests/support/orders';

/**
 * Early close (docs/FAIRNESS.md): POST /api/orders/:id/sell executes at the first tick recorded
 * after the sell is accepted, at the published formula's value for that tick, exactly once
 * against expiry, with one closing transfer; every refusal writes nothing.
 */
describe.each(dbDrivers())('early close on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  let worker: Awaited<ReturnType<typeof stoppedWorker>>;
  const btc = findProduct('BTCUSDT')!;
  const ENTRY = 6_000_000;

  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { env: { ORDER_RATE: 'off' } });
    await publishMarket(api.bus, { BTCUSDT: 'open' });
    worker = await stoppedWorker(t.db, api);
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  type Trader = Awaited<ReturnType<typeof registerUser>>;
  const trader = async (): Promise<Trader> => {
    const u = await registerUser(api, 'sell');
    await fund(t.db, u.user.id, 1_000_000);
    return u;
  };
  /** A 5-minute order with its entry at ENTRY (the worker's entry round, as in production). */
  const entered = async (u: Trader, direction: 'up' | 'down' = 'up'): Promise<Order> => {
    await liveTick(t.db, api.bus, 'BTCUSDT', ENTRY - 100);
    const body = { productId: 'BTCUSDT', direction, amount: 10_000, duration: 300 };
    const placed = (await api.http.post('/api/orders').set(u.auth).send(body).expect(201))
      .body as Order;
    await liveTick(t.db, api.bus, 'BTCUSDT', ENTRY, Date.now() + 1);
    await worker.entryBatch();
    const order = await getOrder(u, placed.id);
    expect(order.entry?.price).toBe('60000.00');
    return order;
  };
  const getOrder = async (u: Trader, id: string) =>
    (await api.http.get(`/api/orders/${id}`).set(u.auth).expect(200)).body as Order;
  const available = async (u: Trader) =>
    (
      (await api.http.get('/api/account/summary').set(u.auth).expect(200)).body as {
        available: number;
      }
    ).available;
  const sell = (u: Trader, id: string, body: object) =>
    api.http.post(`/api/orders/${id}/sell`).set(u.auth).send(body);

  /** Ticks at `price` every 30 ms while `pending` runs (the market goes on during a sale). */
  async function whileTicking<T>(pending: Promise<T>, price: number): Promise<T> {
    let done = false;
    const ticking = (async () => {
      while (!done) {
        await liveTick(t.db, api.bus, 'BTCUSDT', price);
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    try {
      return await pending;
    } finally {
      done = true;
      await ticking;
    }
  }

  const saleTransfers = async (orderId: string) =>
    (
      await t.db.query<{ kind: string }>(`SELECT kind FROM transfers WHERE ref = $1 ORDER BY id`, [
        `settle:${orderId}`,
      ])
    ).rows.map((r) => r.kind);

  it('sells at the first tick after acceptance, at the formula’s value for it, once', async () => {
    const u = await trader();
    const order = await entered(u);
    const before = await available(u);
    const res = await whileTicking(sell(u, order.id, { expected: 0, tolerance: 0 }), 6_006_000);
    expect(res.status).toBe(200);
    const sold = res.body as Order;
    expect(sold.status).toBe('sold');
    expect(sold.exit!.price).toBe('60060.00');
    expect(sold.exit!.ts).toBeGreaterThan(sold.sale!.requestedAt);
    expect(sold.sale!.msLeft).toBe(sold.expiresAt - sold.exit!.ts);
    expect(sold.sale!.annualVol).toBe(btc.annualVol);
    expect(sold.sale!.spreadBp).toBe(500);
    const value = sellValue({
      direction: 'up',
      amount: 10_000,
      rateBp: Math.round(Number(sold.rate) * 10_000),
      entryPrice: ENTRY,
      price: 6_006_000,
      msLeft: sold.sale!.msLeft,
      annualVol: btc.annualVol,
      spreadBp: 500,
    });
    expect(sold.sale!.value).toBe(value);
    expect(sold.payout).toBe(value);
    expect(sold.pnl).toBe(value - 10_000);
    expect(await available(u)).toBe(before + value);
    expect(await saleTransfers(order.id)).toEqual(['order_sale']);
    expect(
      api.userEvents.sent.some(
        (e) => e.event === 'order' && (e.payload as Order).status === 'sold',
      ),
    ).toBe(true);
    // Sold is closed: a second sell, and the worker at expiry, change nothing.
    const again = await sell(u, order.id, { expected: 0, tolerance: 0 });
    expect([again.status, again.body.error.code]).toEqual([409, 'INVALID_STATE']);
    // Its expiry just after the sale tick, so it is due: the worker passes it by.
    await t.db.query(
      `UPDATE orders SET expires_ms = exit_ts + 1, expires_at = to_timestamp((exit_ts + 1) / 1000.0) WHERE id = $1`,
      [order.id],
    );
    await liveTick(t.db, api.bus, 'BTCUSDT', ENTRY);
    await worker.settleBatch();
    expect((await getOrder(u, order.id)).status).toBe('sold');
    expect(await saleTransfers(order.id)).toEqual(['order_sale']);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });

  it('a seller 2 s behind the market gains nothing: the sale is at the next tick, not the one seen', async () => {
    const u = await trader();
    const order = await entered(u, 'up');
    // The seller sees a high price (a good moment to sell an up order) …
    const seen = await liveTick(t.db, api.bus, 'BTCUSDT', 6_030_000);
    await new Promise((r) => setTimeout(r, 2_000));
    // … but the request reaches the api 2 s later, and the market has fallen back since.
    const res = await whileTicking(sell(u, order.id, { expected: 0, tolerance: 0 }), 5_990_000);
    expect(res.status).toBe(200);
    const sold = res.body as Order;
    expect(sold.exit!.seq).toBeGreaterThan(seen.seq);
    expect(sold.exit!.price).toBe('59900.00');
    const atSeen = sellValue({
      direction: 'up',
      amount: 10_000,
      rateBp: Math.round(Number(sold.rate) * 10_000),
      entryPrice: ENTRY,
      price: 6_030_000,
      msLeft: sold.sale!.msLeft,
      annualVol: btc.annualVol,
      spreadBp: 500,
    });
    expect(sold.sale!.value).toBeLessThan(atSeen);
  });

  it('refuses, writing nothing: a value under the tolerance, the entry wait, the last seconds, a stale quote, another’s order', async () => {
    const [u, other] = await Promise.all([trader(), trader()]);
    const order = await entered(u);
    const before = await available(u);
    // Shown the value at 600.00 above the entry; the tick after the request is 200.00 below it.
    const shown = sellValue({
      direction: 'up',
      amount: 10_000,
      rateBp: Math.round(Number(order.rate) * 10_000),
      entryPrice: ENTRY,
      price: 6_060_000,
      msLeft: order.expiresAt - Date.now(),
      annualVol: btc.annualVol,
      spreadBp: 500,
    });
    const changed = await whileTicking(
      sell(u, order.id, { expected: shown, tolerance: Math.floor(shown / 100) }),
      5_980_000,
    );
    expect([changed.status, changed.body.error.code]).toEqual([409, 'SELL_PRICE_CHANGED']);
    expect((await getOrder(u, order.id)).status).toBe('open');
    expect(await available(u)).toBe(before);
    expect(await saleTransfers(order.id)).toEqual([]);

    const theirs = await sell(other, order.id, { expected: 0, tolerance: 0 });
    expect([theirs.status, theirs.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const unknown = await sell(u, '999999999', { expected: 0, tolerance: 0 });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    for (const bad of [
      {},
      { expected: -1, tolerance: 0 },
      { expected: 1.5, tolerance: 0 },
      { expected: '10', tolerance: 0 },
      { expected: 10, tolerance: -1 },
      { expected: 1e20, tolerance: 0 },
    ]) {
      const res = await sell(u, order.id, bad);
      expect([res.status, res.body.error.code], JSON.stringify(bad)).toEqual([
        400,
        'VALIDATION_FAILED',
      ]);
    }

    // Waiting for its entry: no entry tick yet.
    await liveTick(t.db, api.bus, 'BTCUSDT', ENTRY);
    const waiting = (
      await api.http
        .post('/api/orders')
        .set(u.auth)
        .send({ productId: 'BTCUSDT', direction: 'up', amount: 10_000, duration: 300 })
        .expect(201)
    ).body as Order;
    const early = await sell(u, waiting.id, { expected: 0, tolerance: 0 });
    expect([early.status, early.body.error.code]).toEqual([409, 'SELL_NOT_ALLOWED']);

    // The last 10 s before expiry.
    await expireOrder(t.db, order.id, -9_000);
    const late = await sell(u, order.id, { expected: 0, tolerance: 0 });
    expect([late.status, late.body.error.code]).toEqual([409, 'SELL_NOT_ALLOWED']);

    // A quote older than the feed's allowed delay.
    const fresh = await entered(u);
    await liveTick(t.db, api.bus, 'BTCUSDT', ENTRY, Date.now() - 10_000);
    const stale = await sell(u, fresh.id, { expected: 0, tolerance: 0 });
    expect([stale.status, stale.body.error.code]).toEqual([409, 'QUOTE_STALE']);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });

  it('the same sell twice at once: one sale, one refusal', async () => {
    const u = await trader();
    const order = await entered(u);
    const before = await available(u);
    const [a, b] = await whileTicking(
      Promise.all([
        sell(u, order.id, { expected: 0, tolerance: 0 }),
        sell(u, order.id, { expected: 0, tolerance: 0 }),
      ]),
      6_001_000,
    );
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.error.code).toBe('INVALID_STATE');
    const sold = [a, b].find((r) => r.status === 200)!.body as Order;
    expect(await available(u)).toBe(before + sold.payout!);
    expect(await saleTransfers(order.id)).toEqual(['order_sale']);
  });
});
