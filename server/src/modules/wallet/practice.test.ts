import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import type { AccountSummary } from '@shared/wallet/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import {
  backdateOrder,
  liveTick,
  publishMarket,
  recordTick,
  stoppedWorker,
} from '@tests/support/orders';
import {
  bankDepositFields,
  expectLedgerOk,
  opsAuth,
  postDeposit,
  readyUser,
  TRADE_PASSWORD,
  usdtClaimFields,
} from '@tests/support/wallet';
import { userBalances } from '../ledger/ledger';

/**
 * Practice money (issue 19) through the API: every user has a practice balance at once, practice
 * orders take the same path as real ones, and no money endpoint ever moves practice money.
 */
describe.each(dbDrivers())('practice account on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
    await publishMarket(api.bus, { BTCUSDT: 'open', SOLUSDT: 'open', ETHUSDT: 'open' });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const summary = async (auth: Record<string, string>) =>
    (await api.http.get('/api/account/summary').set(auth).expect(200)).body as AccountSummary;
  const order = (over: Record<string, unknown> = {}) => ({
    productId: 'BTCUSDT',
    direction: 'up',
    amount: 10_000,
    duration: 30,
    ...over,
  });
  /** Everything a refused request must leave as it was. */
  const footprint = async (userId: string) => {
    const count = async (sql: string) =>
      Number((await t.db.query<{ n: string }>(sql, [userId])).rows[0]!.n);
    return {
      balances: await userBalances(t.db, Number(userId)),
      transfers: await count('SELECT count(*)::text AS n FROM transfers WHERE user_id = $1'),
      deposits: await count('SELECT count(*)::text AS n FROM deposits WHERE user_id = $1'),
      withdrawals: await count('SELECT count(*)::text AS n FROM withdrawals WHERE user_id = $1'),
      keys: await count('SELECT count(*)::text AS n FROM idempotency_keys WHERE user_id = $1'),
      uploads: await count('SELECT count(*)::text AS n FROM uploads WHERE owner_id = $1'),
      savings: await count('SELECT count(*)::text AS n FROM savings_records WHERE user_id = $1'),
    };
  };
  /** Runs one round of the settlement worker over every order made due. */
  const settleDue = () => stoppedWorker(t.db, api);

  it('gives a newcomer 10 000.00 of practice money at once, apart from a real balance of 0', async () => {
    const u = await registerUser(api, 'newbie');
    // Read at once from several places: the practice balance opens once.
    const [s] = await Promise.all([summary(u.auth), summary(u.auth), summary(u.auth)]);
    expect(s).toMatchObject({
      available: 0,
      inOrders: 0,
      totalAssets: 0,
      pnlTotal: 0,
      practice: { available: 1_000_000, inOrders: 0, pnlTotal: 0, pnlToday: 0, resetTo: 1_000_000 },
    });
    const { rows } = await t.db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM transfers WHERE user_id = $1 AND kind = 'practice_open'",
      [u.user.id],
    );
    expect(rows[0]!.n).toBe('1');
    // Practice money is no fund record: the real history stays empty.
    expect((await api.http.get('/api/wallet/ledger').set(u.auth).expect(200)).body.items).toEqual(
      [],
    );
    await expectLedgerOk(api);
  });

  it('takes a practice order with no real money, and refuses the same order in real money', async () => {
    const u = await registerUser(api, 'trynow');
    await liveTick(t.db, api.bus, 'BTCUSDT', 6_700_000);
    const placed = await api.http
      .post('/api/orders')
      .set(u.auth)
      .send(order({ mode: 'practice' }))
      .expect(201);
    expect(placed.body).toMatchObject({ mode: 'practice', status: 'open', amount: 10_000 });
    const real = await api.http.post('/api/orders').set(u.auth).send(order()).expect(409);
    expect(real.body.error.code).toBe('INSUFFICIENT_BALANCE');
    const s = await summary(u.auth);
    expect(s).toMatchObject({ available: 0, inOrders: 0, totalAssets: 0 });
    expect(s.practice).toMatchObject({ available: 990_000, inOrders: 10_000 });
    // Positions are per mode: the practice order is no real position, and the other way round.
    const list = async (q: string) =>
      ((await api.http.get(`/api/orders${q}`).set(u.auth).expect(200)).body.items as Order[]).map(
        (o) => o.id,
      );
    expect(await list('?status=open&mode=practice')).toEqual([placed.body.id]);
    expect(await list('?status=open')).toEqual([]);
    expect(await list('?mode=real')).toEqual([]);
    // The same placement checks apply to practice orders.
    const big = await api.http
      .post('/api/orders')
      .set(u.auth)
      .send(order({ mode: 'practice', amount: 999 }))
      .expect(400);
    expect(big.body.error.code).toBe('AMOUNT_OUT_OF_RANGE');
    const mode = await api.http
      .post('/api/orders')
      .set(u.auth)
      .send(order({ mode: 'demo' }))
      .expect(400);
    expect(mode.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'mode' });
  });

  it('refuses practice money on every money endpoint with 400 PRACTICE_NOT_ALLOWED and writes nothing', async () => {
    const u = await readyUser(api, 50_000, 'mover');
    await summary(u.auth); // the practice balance is open: there is practice money to refuse
    // A real transfer to the user's own address: only the mode is wrong in its claim.
    const usdt = await usdtClaimFields(api, u.auth, 'usdt-trc20', 20_000);
    const before = await footprint(u.user.id);
    const attempts = [
      postDeposit(
        api,
        { ...u.auth, 'Idempotency-Key': 'p-dep' },
        {
          ...bankDepositFields(20_000),
          mode: 'practice',
        },
      ),
      postDeposit(api, u.auth, { ...usdt, mode: 'practice' }),
      api.http.post('/api/withdrawals').set(u.auth).set('Idempotency-Key', 'p-wd').send({
        accountId: u.accountId,
        amount: 10_000,
        tradePassword: TRADE_PASSWORD,
        mode: 'practice',
      }),
      api.http
        .post('/api/savings/in')
        .set(u.auth)
        .set('Idempotency-Key', 'p-in')
        .send({ amount: 10_000, mode: 'practice' }),
      api.http.post('/api/savings/out').set(u.auth).send({ amount: 100, mode: 'practice' }),
    ];
    const names = ['bank deposit', 'USDT deposit', 'withdrawal', 'savings in', 'savings out'];
    for (const [i, res] of (await Promise.all(attempts)).entries()) {
      expect(res.status, names[i]).toBe(400);
      expect(res.body.error, names[i]).toMatchObject({
        code: 'PRACTICE_NOT_ALLOWED',
        field: 'mode',
      });
    }
    expect(await footprint(u.user.id)).toEqual(before);
    // The same requests in real money are taken (the refusals above were about the mode alone).
    await postDeposit(api, u.auth, { ...bankDepositFields(20_000), mode: 'real' }).expect(201);
    await postDeposit(api, u.auth, { ...usdt, mode: 'real' }, null).expect(201);
    await api.http
      .post('/api/savings/in')
      .set(u.auth)
      .send({ amount: 10_000, mode: 'real' })
      .expect(201);
    await expectLedgerOk(api);
  });

  it('settles a practice and a real order placed at once by one user, each once, each in its own money', async () => {
    const u = await readyUser(api, 100_000, 'both');
    const id = Number(u.user.id);
    await summary(u.auth);
    await liveTick(t.db, api.bus, 'SOLUSDT', 6_700_000, Date.now(), 3);
    const house = async () => {
      const { rows } = await t.db.query<{ kind: string; balance: number }>(
        "SELECT kind, balance FROM ledger_accounts WHERE kind IN ('house_trading', 'house_practice')",
      );
      return Object.fromEntries(rows.map((r) => [r.kind, r.balance]));
    };
    const figures = async () =>
      (await api.http.get('/api/ops/house').set(opsAuth).expect(200)).body as Record<
        'real' | 'practice',
        { placements: number; volume: number; exposure: number; houseResult: number }
      >;
    const houseBefore = await house();
    const figuresBefore = await figures();
    const [practice, real] = await Promise.all([
      api.http
        .post('/api/orders')
        .set(u.auth)
        .send(order({ productId: 'SOLUSDT', mode: 'practice', amount: 20_000 })),
      api.http
        .post('/api/orders')
        .set(u.auth)
        .send(order({ productId: 'SOLUSDT', mode: 'real', amount: 30_000 })),
    ]);
    expect([practice.status, real.status]).toEqual([201, 201]);
    const during = await figures();
    expect(during.practice.exposure - figuresBefore.practice.exposure).toBe(20_000);
    expect(during.real.exposure - figuresBefore.real.exposure).toBe(30_000);
    expect(during.practice.placements - figuresBefore.practice.placements).toBe(1);
    expect(during.real.placements - figuresBefore.real.placements).toBe(1);
    // Both win: each order's entry 100 ms after acceptance, its exit above.
    for (const o of [practice.body as Order, real.body as Order]) {
      const { acceptedMs, expiresMs } = await backdateOrder(t.db, o.id, 31_000);
      await recordTick(t.db, 'SOLUSDT', 6_700_000, acceptedMs + 100);
      await recordTick(t.db, 'SOLUSDT', 6_700_500, expiresMs - 100);
    }
    await recordTick(t.db, 'SOLUSDT', 6_700_500, Date.now() + 10);
    await settleDue();
    await settleDue(); // a second round settles nothing again
    const get = async (o: Order) =>
      (await api.http.get(`/api/orders/${o.id}`).set(u.auth).expect(200)).body as Order;
    expect(await get(practice.body as Order)).toMatchObject({ mode: 'practice', status: 'won' });
    expect(await get(real.body as Order)).toMatchObject({ mode: 'real', status: 'won' });
    const { rows } = await t.db.query<{ ref: string; n: string }>(
      `SELECT ref, count(*)::text AS n FROM transfers WHERE ref = ANY($1::text[]) GROUP BY ref`,
      [[`settle:${practice.body.id}`, `settle:${real.body.id}`]],
    );
    expect(rows.map((r) => r.n)).toEqual(['1', '1']);
    // Payouts at 0.80: the practice win pays practice money, the real win real money.
    const b = await userBalances(t.db, id);
    expect(b).toMatchObject({
      available: 100_000 - 30_000 + 54_000,
      in_orders: 0,
      practice_available: 1_000_000 - 20_000 + 36_000,
      practice_in_orders: 0,
    });
    const s = await summary(u.auth);
    expect(s).toMatchObject({ pnlTotal: 24_000, totalAssets: 124_000 });
    expect(s.practice).toMatchObject({ pnlTotal: 16_000, pnlToday: 16_000 });
    const houseAfter = await house();
    expect(houseAfter.house_trading! - houseBefore.house_trading!).toBe(-24_000);
    expect(houseAfter.house_practice! - houseBefore.house_practice!).toBe(-16_000);
    const after = await figures();
    expect(after.real.houseResult - figuresBefore.real.houseResult).toBe(-24_000);
    expect(after.practice.houseResult - figuresBefore.practice.houseResult).toBe(-16_000);
    await expectLedgerOk(api);
  });

  it('resets the practice balance by its own transfer, not while a practice order is open', async () => {
    const u = await readyUser(api, 40_000, 'reset');
    await summary(u.auth);
    await liveTick(t.db, api.bus, 'ETHUSDT', 300_000);
    const placed = await api.http
      .post('/api/orders')
      .set(u.auth)
      .send(order({ productId: 'ETHUSDT', mode: 'practice', amount: 50_000 }))
      .expect(201);
    const refused = await api.http.post('/api/practice/reset').set(u.auth).expect(409);
    expect(refused.body.error.code).toBe('PRACTICE_ORDERS_OPEN');
    // The order loses; the practice balance is then 950 000 and the reset brings back 1 000 000.
    const { acceptedMs, expiresMs } = await backdateOrder(t.db, placed.body.id, 31_000);
    await recordTick(t.db, 'ETHUSDT', 300_000, acceptedMs + 100);
    await recordTick(t.db, 'ETHUSDT', 299_000, expiresMs - 100);
    await recordTick(t.db, 'ETHUSDT', 299_000, Date.now() + 10);
    await settleDue();
    expect((await summary(u.auth)).practice.available).toBe(950_000);
    const realBefore = await userBalances(t.db, Number(u.user.id));
    const done = await api.http.post('/api/practice/reset').set(u.auth).expect(200);
    expect(done.body).toEqual({ practiceAvailable: 1_000_000 });
    const s = await summary(u.auth);
    expect(s.practice.available).toBe(1_000_000);
    expect(s).toMatchObject({ available: 40_000, totalAssets: 40_000 });
    const realAfter = await userBalances(t.db, Number(u.user.id));
    expect(realAfter.available).toBe(realBefore.available);
    const { rows } = await t.db.query<{ amount: number; mode: string }>(
      `SELECT e.amount, t.mode FROM transfers t JOIN entries e ON e.transfer_id = t.id
       JOIN ledger_accounts a ON a.id = e.account_id
       WHERE t.user_id = $1 AND t.kind = 'practice_reset' AND a.owner_id IS NOT NULL`,
      [u.user.id],
    );
    expect(rows).toEqual([{ amount: 50_000, mode: 'practice' }]);
    // A second reset has nothing to move and writes nothing.
    await api.http.post('/api/practice/reset').set(u.auth).expect(200);
    const again = await t.db.query(
      "SELECT 1 FROM transfers WHERE user_id = $1 AND kind = 'practice_reset'",
      [u.user.id],
    );
    expect(again.rowCount).toBe(1);
    await api.http.post('/api/practice/reset').expect(401);
    await expectLedgerOk(api);
  });
});
