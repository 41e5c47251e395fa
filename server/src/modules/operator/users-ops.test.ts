import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { opsUserProfileDto } from '@shared/contract/answers';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { bulkOrders } from '@tests/support/bulk-orders';
import { deposit, fund, opsAuth, summaryOf } from '@tests/support/wallet';

type OpsUserProfile = z.infer<typeof opsUserProfileDto>;

/** Issue 20: support finds a user and ends their sessions; the admin's dashboard figures. */
describe.each(dbDrivers())('operator user lookup and dashboard on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;

  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api?.close();
    await t?.drop();
  });

  const search = async (q: string) =>
    (
      (await api.http.get('/api/ops/users').query({ q }).set(opsAuth).expect(200)).body.items as {
        id: string;
        account: string;
      }[]
    ).map((u) => u.id);

  it('finds a user by id, by the beginning of the account and by the digits of the phone', async () => {
    const u = await registerUser(api, 'findme');
    expect(await search(u.user.id)).toContain(u.user.id);
    expect(await search(u.account.slice(0, 8).toUpperCase())).toContain(u.user.id);
    // registerUser's phone is +86 138 0013 8000: its digits, however typed.
    expect(await search('138 0013')).toContain(u.user.id);
    expect(await search('zz_nobody_has_this')).toEqual([]);
    // LIKE's wildcards are taken literally: "%" is no way to list everybody.
    expect(await search('%')).toEqual([]);
    const empty = await api.http.get('/api/ops/users').query({ q: '' }).set(opsAuth);
    expect([empty.status, empty.body.error.field]).toEqual([400, 'q']);
  });

  it("shows a user's account at a glance and ends their sessions, sockets told", async () => {
    const u = await registerUser(api, 'profile');
    await fund(api, u, 50_000);
    const pending = await deposit(api, u, 20_000);
    const profile = (await api.http.get(`/api/ops/users/${u.user.id}`).set(opsAuth).expect(200))
      .body as OpsUserProfile;
    expect(profile.user).toMatchObject({ id: u.user.id, account: u.account, frozen: false });
    expect(profile.balances.available).toBe((await summaryOf(api, u)).available);
    expect(profile.deposits.map((d) => d.id)).toContain(pending);
    expect(profile.sessions.length).toBeGreaterThanOrEqual(1);
    await api.http.get('/api/ops/users/99999999').set(opsAuth).expect(404);

    const ended = await api.http
      .delete(`/api/ops/users/${u.user.id}/sessions`)
      .set(opsAuth)
      .expect(200);
    expect(ended.body.revoked).toBeGreaterThanOrEqual(1);
    await api.http.get('/api/account/summary').set(u.auth).expect(401);
    expect(api.userEvents.ended.at(-1)?.reason).toBe('revoked');
    const after = (await api.http.get(`/api/ops/users/${u.user.id}`).set(opsAuth).expect(200)).body;
    expect(after.sessions).toEqual([]);
  });

  it("gives the ledger on the profile, and a reviewer the user's context beside a review", async () => {
    const u = await registerUser(api, 'context');
    await fund(api, u, 30_000);
    const pending = await deposit(api, u, 12_000);
    const own = (await api.http.get('/api/wallet/ledger').set(u.auth).expect(200)).body as {
      items: { id: string }[];
    };
    expect(own.items.length).toBeGreaterThan(0);
    const profile = (await api.http.get(`/api/ops/users/${u.user.id}`).set(opsAuth).expect(200))
      .body as OpsUserProfile;
    expect(profile.ledger).toEqual(own.items.slice(0, 20));

    const context = (
      await api.http.get(`/api/ops/users/${u.user.id}/review-context`).set(opsAuth).expect(200)
    ).body as OpsUserProfile;
    expect(context.user).toMatchObject({ id: u.user.id, kycStatus: profile.user.kycStatus });
    expect(context.balances).toEqual(profile.balances);
    expect(context.deposits.map((d) => d.id)).toContain(pending);
    expect(context.ledger).toEqual(own.items.slice(0, 10));
    expect(context).not.toHaveProperty('sessions');
    await api.http.get('/api/ops/users/99999999/review-context').set(opsAuth).expect(404);
  });

  /**
   * The exposure is checked against the open orders read back and computed here, order by order:
   * the house pays stake + stake × rate (whole minor units, rounded down) to the winning side.
   */
  it('reports exposure per product and direction equal to a computation from the open orders', async () => {
    const a = await registerUser(api, 'expoa');
    const b = await registerUser(api, 'expob');
    await fund(api, a, 10_000_000);
    await fund(api, b, 10_000_000);
    const ids = [Number(a.user.id), Number(b.user.id)];
    await bulkOrders(t.db, ids, 7, 'BTCUSDT');
    await bulkOrders(t.db, ids, 4, 'XAUUSD');
    const { rows } = await t.db.query<{
      product_id: string;
      direction: 'up' | 'down';
      amount: number;
      rate_bp: number;
    }>(
      "SELECT product_id, direction, amount, rate_bp FROM orders WHERE status = 'open' AND mode = 'real'",
    );
    const expected = new Map<string, Record<'up' | 'down', { stake: number; pays: number }>>();
    for (const o of rows) {
      const e = expected.get(o.product_id) ?? {
        up: { stake: 0, pays: 0 },
        down: { stake: 0, pays: 0 },
      };
      e[o.direction].stake += o.amount;
      e[o.direction].pays += o.amount + Math.floor((o.amount * o.rate_bp) / 10_000);
      expected.set(o.product_id, e);
    }
    const dashboard = (await api.http.get('/api/ops/dashboard').set(opsAuth).expect(200)).body;
    expect(dashboard.exposure).toEqual(
      [...expected].map(([productId, sides]) => ({ productId, ...sides })),
    );
    expect(dashboard.placementsLastMinute).toBe(rows.length);
    // The pending deposits the earlier cases left.
    const pendingDeposits = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM deposits WHERE status = 'pending'",
    );
    expect(dashboard.pending).toEqual({
      deposits: pendingDeposits.rows[0]!.n,
      withdrawals: 0,
      kyc: 0,
    });
    expect(pendingDeposits.rows[0]!.n).toBe(2);
    expect(dashboard.housePnlToday).toBe(0);
    expect(dashboard.earlyCloses).toEqual({ count: 0, housePnlToday: 0 });
  });

  /**
   * Early closes (docs/FAIRNESS.md): sold orders are written as the sale writes them (their sale
   * tick as the exit, the value as the payout, the sale's inputs), one sold at a loss to the house.
   * The dashboard counts today's real ones and the house's result on them, within the day's result.
   */
  it("reports today's early closes of real money and the house's result on them", async () => {
    const u = await registerUser(api, 'sells');
    await fund(api, u, 10_000_000);
    await bulkOrders(t.db, [Number(u.user.id)], 4, 'BTCUSDT');
    const { rows: open } = await t.db.query<{ id: number; amount: number }>(
      "SELECT id, amount FROM orders WHERE user_id = $1 AND status = 'open' ORDER BY id",
      [u.user.id],
    );
    const before = (await api.http.get('/api/ops/dashboard').set(opsAuth).expect(200)).body;
    // Two of them sold today: one under its stake (the house gains), one over it (the house pays).
    const values = [Math.floor(open[0]!.amount / 2), open[1]!.amount + 1234];
    for (const [i, value] of values.entries())
      await t.db.query(
        `UPDATE orders SET status = 'sold', entry_seq = 800000 + id, entry_ts = accepted_ms + 100,
                entry_price = 6000000, exit_seq = 900000 + id, exit_ts = expires_ms - 20000,
                exit_price = 6000000, payout = $2, settled_at = now(), sell_requested_ms = expires_ms - 20100,
                sell_annual_vol = 0.6, sell_spread_bp = 500
         WHERE id = $1`,
        [open[i]!.id, value],
      );
    // A third sold before the platform day began, a fourth with practice money: neither counts.
    await t.db.query(
      `UPDATE orders SET status = 'sold', entry_seq = 800000 + id, entry_ts = accepted_ms + 100,
              entry_price = 6000000, exit_seq = 900000 + id, exit_ts = expires_ms - 20000,
              exit_price = 6000000, payout = 1, sell_requested_ms = expires_ms - 20100,
              sell_annual_vol = 0.6, sell_spread_bp = 500,
              settled_at = CASE WHEN id = $1 THEN now() - interval '2 days' ELSE now() END,
              mode = CASE WHEN id = $1 THEN mode ELSE 'practice' END
       WHERE id IN ($1, $2)`,
      [open[2]!.id, open[3]!.id],
    );
    const after = (await api.http.get('/api/ops/dashboard').set(opsAuth).expect(200)).body;
    const houseResult = values.reduce((sum, v, i) => sum + open[i]!.amount - v, 0);
    expect(after.earlyCloses).toEqual({
      count: before.earlyCloses.count + 2,
      housePnlToday: before.earlyCloses.housePnlToday + houseResult,
    });
    // Part of the day's house result, which moved by exactly as much.
    expect(after.housePnlToday - before.housePnlToday).toBe(houseResult);
  });
});
