import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSettlementWorker } from '@server/modules/orders/settlement.worker';
import { sellValue } from '@shared/orders/sell-value';
import { httpOrderSource, verifyOrders } from '../../scripts/order-verifier';
import { patientFetch, retryWait } from '../../scripts/patient-fetch';
import { buildTestApi, registerUser, type TestApi } from '../support/api';
import { bulkOrders } from '../support/bulk-orders';
import { dbDrivers, openTestDb, type TestDb } from '../support/db';
import { backdateOrder, fund, recordTick } from '../support/orders';
import { runScript } from '../support/processes';

const ORDERS = 200;
const MAX_FEED_DELAY_MS = 3000;
const P = 6_700_000; // SOLUSDT, 3 decimals: 6700.000

/**
 * How each order's stretch of tape is written: an exit above, below or at the entry, a feed that
 * stalls before expiry (FEED_STALE), or a first tick too late to enter (NO_ENTRY_TICK).
 */
const scenarios = ['above', 'below', 'equal', 'stale', 'late'] as const;

describe.each(dbDrivers())('npm run verify:orders on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  let server: http.Server;
  let url: string;
  let user: Awaited<ReturnType<typeof registerUser>>;
  /** The order sold early (below) and the value it was sold at. */
  let soldId: string;

  beforeAll(async () => {
    t = await openTestDb(kind);
    // The market-read throttle off: the verifier reads the tape once per order (200 orders, a
    // few times over), past the per-address figure, where it waits as told (tested below).
    api = await buildTestApi(t.db, { env: { MARKET_READ_RATE: 'off' } });
    server = http.createServer(api.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    // 200 orders of one user, each moved into a 40 s stretch of the past of its own, with the
    // tape of its scenario written into that stretch; then the real settlement worker decides them.
    user = await registerUser(api, 'audit');
    await fund(t.db, user.user.id, 1_000_000);
    await bulkOrders(t.db, [Number(user.user.id)], ORDERS, 'SOLUSDT');
    const { rows } = await t.db.query<{ id: number; accepted_ms: number }>(
      'SELECT id, accepted_ms FROM orders WHERE user_id = $1 ORDER BY id',
      [user.user.id],
    );
    const start = Date.now() - ORDERS * 40_000 - 60_000;
    for (const [i, o] of rows.entries()) {
      const { acceptedMs, expiresMs } = await backdateOrder(
        t.db,
        o.id,
        o.accepted_ms - (start + i * 40_000),
      );
      const scenario = scenarios[i % scenarios.length]!;
      if (scenario === 'late') {
        await recordTick(t.db, 'SOLUSDT', P, acceptedMs + MAX_FEED_DELAY_MS + 500);
      } else {
        await recordTick(t.db, 'SOLUSDT', P, acceptedMs + 100);
        await recordTick(t.db, 'SOLUSDT', P + 300, acceptedMs + 10_000);
      }
      const exit = { above: P + 100, below: P - 100, equal: P, stale: P + 50, late: P + 70 };
      const exitAge = scenario === 'stale' ? MAX_FEED_DELAY_MS + 2000 : 100;
      await recordTick(t.db, 'SOLUSDT', exit[scenario], expiresMs - exitAge);
      await recordTick(t.db, 'SOLUSDT', P - 500, expiresMs + 500);
    }
    const worker = startSettlementWorker({
      db: t.db,
      orders: api.orders,
      userEvents: api.userEvents,
      balancesChanged: () => undefined,
      maxFeedDelayMs: MAX_FEED_DELAY_MS,
      idleMs: 10_000,
    });
    await worker.stop();
    while ((await worker.entryBatch()) + (await worker.settleBatch()) > 0);
    soldId = await sellOneEarly();
  }, 240_000);

  /**
   * One lost up order rewritten as sold early, as the sale writes one (sale.repo.ts, markSold):
   * the sell accepted 9 s after the order, the first tick after it (+10 s, P + 300) as the sale
   * tick, 20 s before expiry, at the published formula's value with the product's σ and spread.
   */
  async function sellOneEarly(): Promise<string> {
    const { body: product } = await api.http.get('/api/market/products/SOLUSDT').expect(200);
    const terms = product.earlyClose as { annualVol: number; spreadBp: number };
    const { rows } = await t.db.query<{
      id: number;
      amount: number;
      rate_bp: number;
      accepted_ms: number;
      expires_ms: number;
    }>(
      `SELECT id, amount, rate_bp, accepted_ms, expires_ms FROM orders
       WHERE user_id = $1 AND status = 'lost' AND direction = 'up' ORDER BY id LIMIT 1`,
      [user.user.id],
    );
    const o = rows[0]!;
    const tick = await t.db.query<{ seq: number; ts: number }>(
      `SELECT seq, ts FROM ticks WHERE product_id = 'SOLUSDT' AND ts = $1`,
      [o.accepted_ms + 10_000],
    );
    const { seq, ts } = tick.rows[0]!;
    const value = sellValue({
      direction: 'up',
      amount: o.amount,
      rateBp: o.rate_bp,
      entryPrice: P,
      price: P + 300,
      msLeft: o.expires_ms - ts,
      annualVol: terms.annualVol,
      spreadBp: terms.spreadBp,
    });
    await t.db.query(
      `UPDATE orders SET status = 'sold', exit_seq = $2, exit_ts = $3, exit_price = $4, payout = $5,
              sell_requested_ms = $6, sell_annual_vol = $7, sell_spread_bp = $8
       WHERE id = $1`,
      [o.id, seq, ts, P + 300, value, o.accepted_ms + 9_000, terms.annualVol, terms.spreadBp],
    );
    return String(o.id);
  }

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await api.close();
    await t.drop();
  });

  it('finds every closed order of mixed results settled by the published rule', async () => {
    const report = await verifyOrders(httpOrderSource(url, user.token), {
      modes: ['real', 'practice'],
      maxFeedDelayMs: MAX_FEED_DELAY_MS,
    });
    expect(report.mismatches).toEqual([]);
    expect(report.unverifiable).toEqual([]);
    expect(report.checked).toBe(ORDERS);
    // Every kind of result is among them, counted as the server settled them.
    const { rows } = await t.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM orders WHERE user_id = $1 GROUP BY status',
      [user.user.id],
    );
    expect(report.byStatus).toEqual(Object.fromEntries(rows.map((r) => [r.status, r.n])));
    for (const status of ['won', 'lost', 'draw', 'void'])
      expect(report.byStatus[status]).toBeGreaterThan(0);
    // The sold order, read with its sale (GET /api/orders) and its product's published terms.
    expect(report.byStatus.sold).toBe(1);
    const voids = await t.db.query<{ void_reason: string }>(
      'SELECT DISTINCT void_reason FROM orders WHERE user_id = $1 AND status = $2 ORDER BY 1',
      [user.user.id, 'void'],
    );
    expect(voids.rows.map((r) => r.void_reason)).toEqual(['FEED_STALE', 'NO_ENTRY_TICK']);
  });

  it('names exactly the order whose stored exit price was altered, and the command line exits 1', async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `UPDATE orders SET exit_price = exit_price + 1
       WHERE id = (SELECT id FROM orders WHERE user_id = $1 AND status = 'won' ORDER BY id LIMIT 1 OFFSET 7)
       RETURNING id`,
      [user.user.id],
    );
    const altered = String(rows[0]!.id);
    const report = await verifyOrders(httpOrderSource(url, user.token), {
      modes: ['real'],
      maxFeedDelayMs: MAX_FEED_DELAY_MS,
    });
    expect(report.mismatches.map((m) => m.order.id)).toEqual([altered]);
    expect(report.mismatches[0]!.problems).toEqual([
      expect.stringMatching(/^exit #\d+ \d+\.\d{3} at \d+, the tape gives #\d+ \d+\.\d{3} at \d+$/),
    ]);

    // Run asynchronously: this process serves the API the command line reads.
    const cli = await runScript(['scripts/verify-orders.ts', '--url', url, '--token', user.token]);
    expect(cli.stdout, cli.stderr).toContain(`order ${altered} (real SOLUSDT`);
    expect(cli.stdout).toMatch(
      new RegExp(`${ORDERS} closed orders on .*: 1 mismatch, 0 unverifiable`),
    );
    expect(cli.status).toBe(1);
  });

  it("names the sold order whose value is a cent off the published formula's", async () => {
    await t.db.query('UPDATE orders SET payout = payout + 1 WHERE id = $1', [soldId]);
    const report = await verifyOrders(httpOrderSource(url, user.token), {
      modes: ['real'],
      maxFeedDelayMs: MAX_FEED_DELAY_MS,
    });
    const sold = report.mismatches.find((m) => m.order.id === soldId);
    expect(sold?.problems).toEqual([
      expect.stringMatching(
        /^value \d+\.\d\d, the published formula gives \d+\.\d\d \(K 6700\.000, S 6700\.300, 20000 ms left, σ [\d.]+, spread 500 bp\)$/,
      ),
    ]);
    expect(report.mismatches).toHaveLength(2);
  });
});

describe('the verification tools against a throttled server (scripts/patient-fetch.ts)', () => {
  it('waits the time a 429 or 503 gives, then reads again; gives up on other errors', async () => {
    const answers = [
      new Response(JSON.stringify({ error: { code: 'RATE_LIMITED', retryAfterMs: 30 } }), {
        status: 429,
        headers: { 'Retry-After': '1' },
      }),
      new Response(JSON.stringify({ error: { code: 'UNAVAILABLE' } }), {
        status: 503,
        headers: { 'Retry-After': '0' },
      }),
      new Response(JSON.stringify([{ seq: 1, ts: 10, price: '1.00' }]), { status: 200 }),
    ];
    const asked: number[] = [];
    const fetchImpl = (() => {
      asked.push(Date.now());
      return Promise.resolve(answers.shift()!);
    }) as unknown as typeof fetch;
    const source = httpOrderSource('http://127.0.0.1:1', 'token', patientFetch(fetchImpl));
    expect(await source.ticks('SOLUSDT', 0, 100)).toEqual([{ seq: 1, ts: 10, price: '1.00' }]);
    expect(asked).toHaveLength(3);
    expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(25);

    const refused = (() =>
      Promise.resolve(
        new Response('{"error":{"code":"NOT_FOUND"}}', { status: 404 }),
      )) as unknown as typeof fetch;
    await expect(
      httpOrderSource('http://127.0.0.1:1', 't', refused).ticks('X', 0, 1),
    ).rejects.toThrow(/HTTP 404/);
  });

  it('reads the wait from the body, else Retry-After, and caps it at a minute', () => {
    expect(retryWait(429, '{"error":{"retryAfterMs":1200}}', '2')).toBe(1200);
    expect(retryWait(429, 'not json', '2')).toBe(2000);
    expect(retryWait(503, '{}', '600')).toBe(60_000);
    expect(retryWait(429, '{}', null)).toBeNull();
    expect(retryWait(400, '{"error":{"retryAfterMs":5}}', '1')).toBeNull();
  });
});
