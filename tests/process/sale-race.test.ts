import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import { checkLedger } from '@server/modules/ledger/ledger';
import { startSettlementWorker } from '@server/modules/orders/settlement.worker';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { fund, liveTick, publishMarket } from '@tests/support/orders';
import { httpOrderSource, verifyOrders } from '../../scripts/order-verifier';

/**
 * Sell against expiry (docs/FAIRNESS.md, Early close): 200 orders, each sold around the moment its
 * expiry comes while a settlement worker runs, with no closing stretch (SELL_CLOSES_BEFORE_EXPIRY_MS
 * 0) so the two truly meet. Each order ends exactly once: sold (the sale answered 200) or settled
 * by the worker (the sale refused), with one closing transfer; the ledger holds, and verify:orders
 * re-derives every one of them from the public tape.
 */
describe.each(dbDrivers())('sell and expiry at the same instant on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  const ORDERS = 200;

  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, {
      env: { ORDER_RATE: 'off', MARKET_READ_RATE: 'off', SELL_CLOSES_BEFORE_EXPIRY_MS: '0' },
    });
    await publishMarket(api.bus, { BTCUSDT: 'open' });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  it('ends each of 200 orders once: sold or settled, one transfer each, the ledger balanced, every one verified', async () => {
    const users = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const u = await registerUser(api, 'race');
        await fund(t.db, u.user.id, 1_000_000);
        return u;
      }),
    );
    // The market ticks every 25 ms throughout; a worker gives entries and settles, as in production.
    let ticking = true;
    const market = (async () => {
      for (let p = 6_000_000; ticking; p += 7) {
        await liveTick(t.db, api.bus, 'BTCUSDT', p);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const worker = startSettlementWorker({
      db: t.db,
      orders: api.orders,
      userEvents: api.userEvents,
      balancesChanged: () => undefined,
      maxFeedDelayMs: 3000,
      idleMs: 10,
    });
    try {
      // 200 orders of 30 s; each one's sell is sent from 600 ms before its expiry to 30 ms after
      // it (steps of 70 ms): the first are sold, the last come too late, and those near the
      // expiry race the worker for the order (a tick comes every 25 ms).
      const placed = await Promise.all(
        Array.from({ length: ORDERS }, async (_, i) => {
          const u = users[i % users.length]!;
          const body = {
            productId: 'BTCUSDT',
            direction: i % 2 ? 'up' : 'down',
            amount: 1_000,
            duration: 30,
          };
          const o = (await api.http.post('/api/orders').set(u.auth).send(body).expect(201))
            .body as Order;
          return { order: o, auth: u.auth, offset: -600 + (i % 10) * 70 };
        }),
      );
      const answers = await Promise.all(
        placed.map(async (p) => {
          const at = p.order.expiresAt + p.offset;
          await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
          return api.http
            .post(`/api/orders/${p.order.id}/sell`)
            .set(p.auth)
            .send({ expected: 0, tolerance: 0 });
        }),
      );
      const ids = placed.map((p) => p.order.id);
      const open = async () =>
        Number(
          (
            await t.db.query<{ n: string }>(
              `SELECT count(*)::text AS n FROM orders WHERE id = ANY($1::bigint[]) AND status = 'open'`,
              [ids],
            )
          ).rows[0]!.n,
        );
      await expect.poll(open, { timeout: 30_000, interval: 100 }).toBe(0);

      const { rows } = await t.db.query<{ id: string; status: string; closings: string }>(
        `SELECT o.id::text, o.status,
                (SELECT count(*) FROM transfers x WHERE x.ref = 'settle:' || o.id)::text AS closings
           FROM orders o WHERE o.id = ANY($1::bigint[])`,
        [ids],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      const outcomes = { sold: 0, settled: 0 };
      placed.forEach((p, i) => {
        const row = byId.get(p.order.id)!;
        const answer = answers[i]!;
        expect(row.closings, `order ${p.order.id}`).toBe('1');
        if (answer.status === 200) {
          expect(row.status).toBe('sold');
          expect((answer.body as Order).status).toBe('sold');
          outcomes.sold++;
        } else {
          expect(answer.status).toBe(409);
          expect(['INVALID_STATE', 'SELL_NOT_ALLOWED']).toContain(answer.body.error.code);
          expect(['won', 'lost', 'draw', 'void']).toContain(row.status);
          outcomes.settled++;
        }
      });
      console.log(`${kind}: ${outcomes.sold} sold, ${outcomes.settled} settled at expiry`);
      // Both ends of the spread happened: the race was between the two, not won by one alone.
      expect(outcomes.sold).toBeGreaterThan(0);
      expect(outcomes.settled).toBeGreaterThan(0);
      expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });

      // verify:orders re-derives every order from the public tape, each sale by the formula.
      let verified = 0;
      for (const u of users) {
        const report = await verifyOrders(httpOrderSource('http://api', u.token, viaTestApi), {
          modes: ['real'],
          maxFeedDelayMs: 3000,
        });
        expect(report.mismatches, u.account).toEqual([]);
        expect(report.unverifiable, u.account).toEqual([]);
        verified += report.checked;
      }
      expect(verified).toBe(ORDERS);
    } finally {
      ticking = false;
      await market;
      await worker.stop();
    }
  }, 180_000);

  /** `fetch` answered by the test api (supertest), for the verifier's HTTP source. */
  const viaTestApi: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    const res = await api.http
      .get(url.pathname + url.search)
      .set('Authorization', headers.get('Authorization') ?? '');
    return new Response(JSON.stringify(res.body), {
      status: res.status,
      headers: { 'Content-Type': 'application/json' },
    });
  };
});
