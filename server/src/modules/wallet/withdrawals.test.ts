import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import {
  bindBank,
  expectLedgerOk,
  itemsOf,
  fund,
  opsAuth,
  readyUser,
  summaryOf,
  TRADE_PASSWORD,
  verifyKyc,
} from '@tests/support/wallet';

const erc20 = '0x52908400098527886E0F7030069857D2E4169EE7';
const coinBody = (network: string, address: string) => ({
  type: 'coin',
  network,
  address,
  tradePassword: TRADE_PASSWORD,
});

/** Withdrawals: asked for, held, reviewed (withdrawal-accounts.test.ts binds the accounts). */
describe.each(dbDrivers())('withdrawals on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  describe('withdrawals', () => {
    it('holds the amount at once; success pays it out, failure returns it with the reason', async () => {
      const u = await readyUser(api, 100_000);
      const w = await api.http
        .post('/api/withdrawals')
        .set(u.auth)
        .send({ accountId: u.accountId, amount: 30_000, tradePassword: '123456' })
        .expect(201);
      expect(w.body).toMatchObject({
        accountId: u.accountId,
        amount: 30_000,
        status: 'pending',
        account: { id: u.accountId, type: 'bank' },
      });
      expect(await summaryOf(api, u)).toMatchObject({
        available: 70_000,
        withdrawHold: 30_000,
        totalAssets: 100_000,
      });
      // The balance event, beside the security message the request wrote (`message`).
      expect(api.userEvents.sent.filter((e) => e.event === 'balance').at(-1)).toMatchObject({
        userId: u.user.id,
        event: 'balance',
        payload: { available: 70_000, withdrawHold: 30_000 },
      });
      const ops = await api.http.get('/api/ops/withdrawals?status=pending').set(opsAuth);
      expect(itemsOf(ops).find((x) => x.id === w.body.id)).toMatchObject({
        userId: u.user.id,
        userAccount: u.account,
        account: { cardNumber: '6222020012345678' },
      });
      await api.http.post(`/api/ops/withdrawals/${w.body.id}/approve`).set(opsAuth).expect(200);
      expect(await summaryOf(api, u)).toMatchObject({
        available: 70_000,
        withdrawHold: 0,
        totalAssets: 70_000,
      });

      const w2 = await api.http
        .post('/api/withdrawals')
        .set(u.auth)
        .send({ accountId: u.accountId, amount: 20_000, tradePassword: '123456' })
        .expect(201);
      const failed = await api.http
        .post(`/api/ops/withdrawals/${w2.body.id}/reject`)
        .set(opsAuth)
        .send({ reason: 'Card closed' })
        .expect(200);
      expect(failed.body).toMatchObject({ status: 'failed', reason: 'Card closed' });
      expect(await summaryOf(api, u)).toMatchObject({ available: 70_000, withdrawHold: 0 });
      const mine = await api.http.get('/api/withdrawals').set(u.auth).expect(200);
      expect(itemsOf(mine).map((x) => x.status)).toEqual(['failed', 'success']);
      expect(mine.body.items[0]).toMatchObject({ reason: 'Card closed' });

      const records = await api.http.get('/api/wallet/ledger').set(u.auth).expect(200);
      expect(
        itemsOf<{ type: string; amount: number; balanceAfter: number }>(records).map((r) => [
          r.type,
          r.amount,
          r.balanceAfter,
        ]),
      ).toEqual([
        ['withdraw_release', 20_000, 70_000],
        ['withdraw_hold', -20_000, 50_000],
        ['withdraw_hold', -30_000, 70_000],
        ['deposit', 100_000, 100_000],
      ]);
      const holds = await api.http.get('/api/wallet/ledger?type=withdraw_hold&limit=1').set(u.auth);
      expect(holds.body.items).toHaveLength(1);
      expect(holds.body.items[0].amount).toBe(-20_000);
      const next = await api.http
        .get(`/api/wallet/ledger?type=withdraw_hold&limit=1&cursor=${holds.body.nextCursor}`)
        .set(u.auth);
      expect(next.body).toMatchObject({ items: [{ amount: -30_000 }], nextCursor: null });
      await expectLedgerOk(api);
    });

    it('refuses in order: foreign account 404, amount 400, password 403, identity 403', async () => {
      const u = await registerUser(api, 'wd');
      const other = await readyUser(api, 0, 'wdo');
      // A coin address: a bank account would wait for the verified identity itself.
      const coin = await api.http
        .post('/api/withdrawal-accounts')
        .set(u.auth)
        .send(coinBody('ERC20', erc20))
        .expect(201);
      const accountId = coin.body.id as string;
      await fund(api, u, 100_000);
      const post = (body: object) =>
        api.http
          .post('/api/withdrawals')
          .set(u.auth)
          .send({ accountId, amount: 10_000, tradePassword: '123456', ...body });
      expect((await post({ accountId: other.accountId })).body.error.code).toBe('NOT_FOUND');
      expect((await post({ accountId: '999999999' })).status).toBe(404);
      const low = await post({ amount: 999 });
      expect([low.status, low.body.error.code, low.body.error.field]).toEqual([
        400,
        'AMOUNT_OUT_OF_RANGE',
        'amount',
      ]);
      expect((await post({ amount: 5_000_001 })).body.error.code).toBe('AMOUNT_OUT_OF_RANGE');
      const wrong = await post({ tradePassword: '654321' });
      expect([wrong.status, wrong.body.error.code]).toEqual([403, 'WRONG_TRADE_PASSWORD']);
      const kyc = await post({});
      expect([kyc.status, kyc.body.error.code]).toEqual([403, 'KYC_REQUIRED']);
      expect(await summaryOf(api, u)).toMatchObject({ available: 100_000, withdrawHold: 0 });
      await verifyKyc(api, u);
      await post({}).expect(201);
      const short = await post({ amount: 95_000 });
      expect([short.status, short.body.error.code]).toEqual([409, 'INSUFFICIENT_BALANCE']);
      expect(await summaryOf(api, u)).toMatchObject({ available: 90_000, withdrawHold: 10_000 });
      expect((await api.http.get('/api/withdrawals').set(u.auth)).body.items).toHaveLength(1);
    });

    it('stops guesses at the transaction password: 10 wrong ones per user, then 429 even for the right one', async () => {
      const u = await readyUser(api, 100_000, 'guess');
      const other = await readyUser(api, 100_000, 'notguess');
      const withdraw = (user: typeof u, tradePassword: string) =>
        api.http
          .post('/api/withdrawals')
          .set(user.auth)
          .send({ accountId: user.accountId, amount: 10_000, tradePassword });
      // Sent at once: the limit holds for guesses racing each other too.
      const guesses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => withdraw(u, String(100_000 + i))),
      );
      const codes = guesses.map((r) => `${r.status} ${r.body.error.code}`).sort();
      expect(codes).toEqual([
        ...Array<string>(10).fill('403 WRONG_TRADE_PASSWORD'),
        ...Array<string>(2).fill('429 TOO_MANY_ATTEMPTS'),
      ]);
      const right = await withdraw(u, '123456');
      expect([right.status, right.body.error.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
      // The same count guards the old password when changing the transaction password.
      const change = await api.http
        .post('/api/me/trade-password')
        .set(u.auth)
        .send({ oldPassword: '123456', newPassword: '654321', confirmPassword: '654321' });
      expect([change.status, change.body.error.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
      expect(await summaryOf(api, u)).toMatchObject({ available: 100_000, withdrawHold: 0 });
      expect(itemsOf(await api.http.get('/api/withdrawals').set(u.auth))).toEqual([]);
      // Another user is not affected.
      expect((await withdraw(other, '123456')).status).toBe(201);
    });

    it('forgets wrong transaction passwords once the right one is given', async () => {
      const u = await readyUser(api, 100_000, 'forget');
      const withdraw = (tradePassword: string) =>
        api.http
          .post('/api/withdrawals')
          .set(u.auth)
          .send({ accountId: u.accountId, amount: 10_000, tradePassword });
      for (let i = 0; i < 9; i++) expect((await withdraw('000000')).status).toBe(403);
      expect((await withdraw('123456')).status).toBe(201);
      for (let i = 0; i < 9; i++) expect((await withdraw('000000')).status).toBe(403);
      expect((await withdraw('123456')).status).toBe(201);
      expect(await summaryOf(api, u)).toMatchObject({ available: 80_000, withdrawHold: 20_000 });
      await expectLedgerOk(api);
    });

    it('follows the configured limits, and can do without identity checks', async () => {
      // A second app over the same database, configured otherwise.
      const api2 = await buildTestApi(t.db, {
        env: { WITHDRAW_MIN: '5000', WITHDRAW_MAX: '6000', WITHDRAW_REQUIRES_KYC: 'false' },
      });
      try {
        const u = await registerUser(api2, 'cfg');
        const accountId = await bindBank(api2, u);
        await fund(api2, u, 20_000);
        const rules = await api2.http.get('/api/withdrawals/rules').set(u.auth).expect(200);
        expect(rules.body).toEqual({
          min: 5000,
          max: 6000,
          feeBps: 0,
          feeMin: 0,
          requiresKyc: false,
        });
        const post = (amount: number) =>
          api2.http
            .post('/api/withdrawals')
            .set(u.auth)
            .send({ accountId, amount, tradePassword: '123456' });
        expect((await post(4999)).status).toBe(400);
        expect((await post(6001)).status).toBe(400);
        expect((await post(6000)).status).toBe(201);
      } finally {
        await api2.close();
      }
    });
  });
});
