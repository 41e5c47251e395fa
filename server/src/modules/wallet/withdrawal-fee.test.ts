import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, type TestApi } from '@tests/support/api';
import {
  expectLedgerOk,
  opsAuth,
  readyUser,
  summaryOf,
  TRADE_PASSWORD,
} from '@tests/support/wallet';

/** The withdrawal fee (DECISIONS.md, Withdrawal fee): 1.5 % with a 2.00 minimum here. */
describe.each(dbDrivers())('withdrawal fee on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { env: { WITHDRAW_FEE_BPS: '150', WITHDRAW_FEE_MIN: '200' } });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });
  const houseFees = async () =>
    (
      await t.db.query<{ balance: number }>(
        "SELECT balance FROM ledger_accounts WHERE owner_id IS NULL AND kind = 'house_fees'",
      )
    ).rows[0]!.balance;
  /** Every account of the user, and the fee account: balances are the sums of their entries. */
  const entriesOf = async (ref: string) =>
    (
      await t.db.query<{ kind: string; amount: number }>(
        `SELECT a.kind, e.amount FROM entries e JOIN transfers t ON t.id = e.transfer_id
         JOIN ledger_accounts a ON a.id = e.account_id WHERE t.ref = $1 ORDER BY e.id`,
        [ref],
      )
    ).rows;

  it('quotes the fee, what arrives and when; refuses bad amounts with 400 naming amount', async () => {
    const u = await readyUser(api, 0, 'fee');
    const quote = (amount: string, accountId = u.accountId) =>
      api.http.get('/api/withdrawals/quote').query({ amount, accountId }).set(u.auth);
    expect((await quote('100000').expect(200)).body).toEqual({
      amount: 100_000,
      fee: 1500,
      receive: 98_500,
      arrival: { withinMinutes: 1440 },
    });
    // Below the minimum the minimum applies.
    expect((await quote('10000').expect(200)).body).toMatchObject({ fee: 200, receive: 9800 });
    for (const amount of ['0', '-100', '10.5', '1e5', 'ten', '', '9'.repeat(15), '9'.repeat(40)]) {
      const res = await quote(amount).expect(400);
      expect(res.body.error.field).toBe('amount');
    }
    await quote('10000', '999999').expect(404);
    const rules = await api.http.get('/api/withdrawals/rules').set(u.auth).expect(200);
    expect(rules.body).toMatchObject({ feeBps: 150, feeMin: 200 });
  });

  it('takes the fee through the ledger with the hold; pays the rest; balances are entry sums', async () => {
    const u = await readyUser(api, 500_000, 'fee');
    const feesBefore = await houseFees();
    const res = await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .send({ accountId: u.accountId, amount: 200_000, tradePassword: TRADE_PASSWORD })
      .expect(201);
    expect(res.body).toMatchObject({ amount: 200_000, fee: 3000, receive: 197_000 });
    const ref = `withdrawal:${res.body.id}`;
    const hold = await entriesOf(ref);
    expect(hold).toEqual(
      expect.arrayContaining([
        { kind: 'available', amount: -200_000 },
        { kind: 'withdraw_hold', amount: 197_000 },
        { kind: 'house_fees', amount: 3000 },
      ]),
    );
    expect(hold.reduce((s, e) => s + e.amount, 0)).toBe(0);
    expect(await summaryOf(api, u)).toMatchObject({ available: 300_000, withdrawHold: 197_000 });
    expect((await houseFees()) - feesBefore).toBe(3000);

    await api.http.post(`/api/ops/withdrawals/${res.body.id}/approve`).set(opsAuth).expect(200);
    const all = await entriesOf(ref);
    expect(all.reduce((s, e) => s + e.amount, 0)).toBe(0);
    expect(all).toContainEqual({ kind: 'world', amount: 197_000 });
    expect(await summaryOf(api, u)).toMatchObject({ available: 300_000, withdrawHold: 0 });
    expect((await houseFees()) - feesBefore).toBe(3000);
    await expectLedgerOk(api);
  });

  it('gives the fee back with the amount when the withdrawal fails', async () => {
    const u = await readyUser(api, 100_000, 'fee');
    const feesBefore = await houseFees();
    const res = await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .send({ accountId: u.accountId, amount: 100_000, tradePassword: TRADE_PASSWORD })
      .expect(201);
    expect(res.body.fee).toBe(1500);
    expect(await summaryOf(api, u)).toMatchObject({ available: 0, withdrawHold: 98_500 });
    await api.http
      .post(`/api/ops/withdrawals/${res.body.id}/reject`)
      .set(opsAuth)
      .send({ reason: 'card closed' })
      .expect(200);
    expect(await summaryOf(api, u)).toMatchObject({ available: 100_000, withdrawHold: 0 });
    expect(await houseFees()).toBe(feesBefore);
    const all = await entriesOf(`withdrawal:${res.body.id}`);
    expect(all.reduce((s, e) => s + e.amount, 0)).toBe(0);
    await expectLedgerOk(api);
  });
});
