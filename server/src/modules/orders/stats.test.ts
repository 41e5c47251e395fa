import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, TradeMode } from '@shared/orders/model';
import type { TradingStats } from '@shared/orders/stats';
import { dayKey, dayStart } from '@server/platform/clock';
import { tradingStats } from './stats';
import { orderAccounts, transfer, type Leg } from '@server/modules/ledger/ledger';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { fund, liveTick, publishMarket } from '@tests/support/orders';

type Closed = 'won' | 'lost' | 'draw' | 'void' | 'sold';
const DAY = 86_400_000;

/**
 * Trading statistics (GET /api/orders/stats): the caller's closed orders of one mode, counted
 * and summed overall, by product, duration and platform day, and equal to what the ledger moved.
 */
describe.each(dbDrivers())('trading statistics on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { env: { ORDER_RATE: 'off' } });
    await publishMarket(api.bus, { BTCUSDT: 'open', ETHUSDT: 'open' });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  type Trader = Awaited<ReturnType<typeof registerUser>>;
  const trader = async (): Promise<Trader> => {
    const u = await registerUser(api, 'stats');
    await fund(t.db, u.user.id, 100_000);
    return u;
  };
  const place = async (
    u: Trader,
    o: { productId: string; amount: number; duration: number; mode?: TradeMode },
  ): Promise<Order> => {
    await liveTick(t.db, api.bus, o.productId, 6_700_000);
    const body = { direction: 'up', mode: 'real', ...o };
    return (await api.http.post('/api/orders').set(u.auth).send(body).expect(201)).body as Order;
  };
  /**
   * Closes an order `daysAgo` days back as the settlement worker (or a sale) does: the row's
   * result in SQL and, in the same transaction, the closing transfer `settle:<id>` of the
   * worker's closingTransfer (order_sale for a sale). Returns its settlement time, epoch ms.
   */
  const close = (o: Order, status: Closed, payout: number, daysAgo = 0) =>
    t.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ settled: number }>(
        `UPDATE orders SET status = $2, payout = $3, entry_seq = 1, entry_ts = accepted_ms,
                entry_price = 6700000, exit_seq = 2, exit_price = 6700000,
                exit_ts = CASE WHEN $2 = 'sold' THEN accepted_ms + 1 ELSE expires_ms END,
                void_reason = CASE WHEN $2 = 'void' THEN 'FEED_STALE' END,
                sell_requested_ms = CASE WHEN $2 = 'sold' THEN accepted_ms END,
                sell_annual_vol = CASE WHEN $2 = 'sold' THEN 0.5 END,
                sell_spread_bp = CASE WHEN $2 = 'sold' THEN 500 END,
                settled_at = now() - make_interval(days => $4::int)
          WHERE id = $1
          RETURNING floor(extract(epoch FROM settled_at) * 1000)::float8 AS settled`,
        [o.id, status, payout, daysAgo],
      );
      const a = orderAccounts[o.mode];
      const userId = Number(
        (
          await tx.query<{ u: number }>('SELECT user_id::int AS u FROM orders WHERE id = $1', [
            o.id,
          ])
        ).rows[0]!.u,
      );
      const legs: Leg[] = [{ account: { user: userId, kind: a.inOrders }, amount: -o.amount }];
      if (payout > 0) legs.push({ account: { user: userId, kind: a.available }, amount: payout });
      if (payout !== o.amount)
        legs.push({ account: { house: a.house }, amount: o.amount - payout });
      const kinds = { won: 'order_payout', lost: 'order_loss', sold: 'order_sale' } as const;
      await transfer(tx, {
        kind: status in kinds ? kinds[status as keyof typeof kinds] : 'order_refund',
        userId,
        ref: `settle:${o.id}`,
        legs,
      });
      return Number(rows[0]!.settled);
    });
  const stats = (u: Trader, query: Record<string, unknown> = {}) =>
    api.http.get('/api/orders/stats').set(u.auth).query(query);
  const statsOf = async (u: Trader, query: Record<string, unknown> = {}) =>
    (await stats(u, query).expect(200)).body as TradingStats;
  /** What the ledger moved to and from the user's own accounts of one mode for their orders. */
  const ledgerPnl = async (u: Trader, mode: TradeMode) => {
    const { rows } = await t.db.query<{ sum: string }>(
      `SELECT coalesce(sum(e.amount), 0)::text AS sum
         FROM entries e JOIN transfers x ON x.id = e.transfer_id
         JOIN ledger_accounts a ON a.id = e.account_id
        WHERE a.owner_id = $1 AND a.mode = $2
          AND x.kind IN ('order_stake', 'order_payout', 'order_loss', 'order_refund', 'order_sale')`,
      [u.user.id, mode],
    );
    return Number(rows[0]!.sum);
  };
  const row = (r: Partial<TradingStats['overall']>) => ({
    ...{ orders: 0, won: 0, lost: 0, draw: 0, void: 0, sold: 0, winRate: null },
    ...{ stake: 0, payout: 0, pnl: 0, averageStake: 0 },
    ...r,
  });

  it('counts the closed orders by product, duration and day, each mode apart, as the ledger says', async () => {
    const [u, other] = await Promise.all([trader(), trader()]);
    const btc = (amount: number, duration = 30, mode: TradeMode = 'real') =>
      place(u, { productId: 'BTCUSDT', amount, duration, mode });
    const eth = (amount: number, duration: number) =>
      place(u, { productId: 'ETHUSDT', amount, duration });
    const won = await close(await btc(1_000), 'won', 1_850);
    await close(await btc(1_000), 'lost', 0);
    const draw = await close(await btc(2_000, 300), 'draw', 2_000, 1);
    await close(await eth(1_000, 30), 'void', 1_000, 1);
    await close(await eth(3_000, 300), 'sold', 1_200);
    const old = await close(await btc(1_000), 'lost', 0, 10);
    await btc(5_000); // open: no result yet
    await close(await btc(1_000, 30, 'practice'), 'won', 1_850);
    await close(
      await place(other, { productId: 'BTCUSDT', amount: 4_000, duration: 30 }),
      'won',
      7_400,
    );

    const real = await statsOf(u);
    expect([real.mode, real.to]).toEqual(['real', dayKey(Date.now())]);
    expect(real.from).toBe(dayKey(Date.now() - 29 * DAY));
    const all = { stake: 9_000, payout: 6_050, pnl: -2_950, averageStake: 1_500 };
    expect(real.overall).toEqual(
      row({ orders: 6, won: 1, lost: 2, draw: 1, void: 1, sold: 1, winRate: '0.3333', ...all }),
    );
    expect(real.byProduct).toEqual([
      {
        productId: 'BTCUSDT',
        ...row({ orders: 4, won: 1, lost: 2, draw: 1, winRate: '0.3333' }),
        stake: 5_000,
        payout: 3_850,
        pnl: -1_150,
        averageStake: 1_250,
      },
      {
        productId: 'ETHUSDT',
        ...row({ orders: 2, void: 1, sold: 1 }),
        stake: 4_000,
        payout: 2_200,
        pnl: -1_800,
        averageStake: 2_000,
      },
    ]);
    expect(real.byDuration).toEqual([
      {
        duration: 30,
        ...row({ orders: 4, won: 1, lost: 2, void: 1, winRate: '0.3333' }),
        stake: 4_000,
        payout: 2_850,
        pnl: -1_150,
        averageStake: 1_000,
      },
      {
        duration: 300,
        ...row({ orders: 2, draw: 1, sold: 1 }),
        stake: 5_000,
        payout: 3_200,
        pnl: -1_800,
        averageStake: 2_500,
      },
    ]);
    expect(real.byDay).toEqual([
      {
        day: dayKey(old),
        ...row({
          orders: 1,
          lost: 1,
          winRate: '0.0000',
          stake: 1_000,
          averageStake: 1_000,
          pnl: -1_000,
        }),
      },
      {
        day: dayKey(draw),
        ...row({ orders: 2, draw: 1, void: 1, stake: 3_000, payout: 3_000, averageStake: 1_500 }),
      },
      {
        day: dayKey(won),
        ...row({
          orders: 3,
          won: 1,
          lost: 1,
          sold: 1,
          winRate: '0.5000',
          stake: 5_000,
          payout: 3_050,
          pnl: -1_950,
          averageStake: 1_666,
        }),
      },
    ]);
    // The numbers equal what the ledger says: every closed order's money, and nobody else's.
    expect(real.overall.pnl).toBe(await ledgerPnl(u, 'real'));

    // The last 7 days leave the order of 10 days ago out.
    const week = await statsOf(u, { days: 7 });
    expect([week.overall.orders, week.overall.pnl, week.overall.winRate]).toEqual([
      5,
      -1_950,
      '0.5000',
    ]);

    const practice = await statsOf(u, { mode: 'practice', days: 90 });
    expect(practice.overall).toEqual(
      row({
        orders: 1,
        won: 1,
        winRate: '1.0000',
        stake: 1_000,
        payout: 1_850,
        pnl: 850,
        averageStake: 1_000,
      }),
    );
    expect(practice.overall.pnl).toBe(await ledgerPnl(u, 'practice'));
    expect(practice.byProduct.map((p) => p.productId)).toEqual(['BTCUSDT']);

    // The other trader sees their own order only.
    const theirs = await statsOf(other);
    expect([theirs.overall.orders, theirs.overall.pnl]).toEqual([1, 3_400]);
    expect(theirs.overall.pnl).toBe(await ledgerPnl(other, 'real'));
  });

  it('counts days in the platform day (PLATFORM_UTC_OFFSET_MINUTES), not UTC', async () => {
    const u = await trader();
    const order = await place(u, { productId: 'BTCUSDT', amount: 1_000, duration: 30 });
    await close(order, 'won', 1_850);
    // Settled at 23:30 UTC yesterday: yesterday in UTC, today one hour east of it.
    const at = dayStart(Date.now()) - 30 * 60_000;
    await t.db.query('UPDATE orders SET settled_at = $2 WHERE id = $1', [order.id, new Date(at)]);
    // Two days, so the order is in both windows at any hour.
    const q = { mode: 'real', days: 2 } as const;
    const utc = await tradingStats(t.db, Number(u.user.id), q, { offsetMinutes: 0 });
    expect(utc.byDay.map((d) => [d.day, d.orders])).toEqual([[dayKey(at), 1]]);
    const east = await tradingStats(t.db, Number(u.user.id), q, { offsetMinutes: 60 });
    expect(east.byDay.map((d) => [d.day, d.orders])).toEqual([[dayKey(at, 60), 1]]);
    expect(dayKey(at, 60)).not.toBe(dayKey(at));
  });

  it('answers a newcomer with zeros and empty lists', async () => {
    const u = await trader();
    const s = await statsOf(u, { days: 90 });
    expect(s.overall).toEqual(row({}));
    expect([s.byProduct, s.byDuration, s.byDay]).toEqual([[], [], []]);
  });

  it('refuses a bad period or mode (400 VALIDATION_FAILED), and a caller without a session', async () => {
    const u = await trader();
    for (const query of [
      { days: 0 },
      { days: 91 },
      { days: 'x' },
      { days: 1.5 },
      { mode: 'fake' },
    ]) {
      const res = await stats(u, query).expect(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    await api.http.get('/api/orders/stats').expect(401);
  });
});
