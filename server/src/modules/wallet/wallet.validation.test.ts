import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, type TestApi } from '@tests/support/api';
import {
  bankDepositFields,
  deposit,
  expectLedgerOk,
  itemsOf,
  opsAuth,
  postDeposit,
  readyUser,
  summaryOf,
  txIdFor,
  usdtClaimFields,
} from '@tests/support/wallet';

type Ready = Awaited<ReturnType<typeof readyUser>>;

/** Bad input on every wallet endpoint: a 4xx with a stable code, never a 500, nothing written. */
describe.each(dbDrivers())('wallet input checks on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  let u: Ready;
  let other: Ready;
  let before: Record<string, number>;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
    u = await readyUser(api, 100_000, 'val');
    other = await readyUser(api, 0, 'valo');
    const { rows } = await t.db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM deposits) AS deposits, (SELECT count(*)::int FROM withdrawals) AS withdrawals,
              (SELECT count(*)::int FROM uploads) AS uploads, (SELECT count(*)::int FROM transfers) AS transfers,
              (SELECT count(*)::int FROM withdrawal_accounts) AS accounts`,
    );
    before = rows[0]!;
  });
  afterAll(async () => {
    // Everything above was refused: not a row more than the setup wrote.
    const { rows } = await t.db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM deposits) AS deposits, (SELECT count(*)::int FROM withdrawals) AS withdrawals,
              (SELECT count(*)::int FROM uploads) AS uploads, (SELECT count(*)::int FROM transfers) AS transfers,
              (SELECT count(*)::int FROM withdrawal_accounts) AS accounts`,
    );
    expect(rows[0]).toEqual(before);
    expect(await summaryOf(api, u)).toMatchObject({ available: 100_000, withdrawHold: 0 });
    await expectLedgerOk(api);
    await api.close();
    await t.drop();
  });

  const bank = (over: Record<string, string>) => ({ ...bankDepositFields(10_000), ...over });
  it.each([
    [{}, 'VALIDATION_FAILED', 'channel'],
    [{ channel: 'paypal', amount: '10000' }, 'VALIDATION_FAILED', 'channel'],
    [bank({ amount: '' }), 'VALIDATION_FAILED', 'amount'],
    [bank({ amount: 'ten' }), 'VALIDATION_FAILED', 'amount'],
    [bank({ amount: '100.50' }), 'VALIDATION_FAILED', 'amount'],
    [bank({ amount: '1e5' }), 'VALIDATION_FAILED', 'amount'],
    [bank({ amount: '9'.repeat(40) }), 'VALIDATION_FAILED', 'amount'],
    [bank({ amount: '10050' }), 'VALIDATION_FAILED', 'amount'],
    [bank({ amount: '-10000' }), 'AMOUNT_OUT_OF_RANGE', 'amount'],
    [bank({ amount: '0' }), 'AMOUNT_OUT_OF_RANGE', 'amount'],
    [bank({ amount: '900' }), 'AMOUNT_OUT_OF_RANGE', 'amount'],
    [bank({ amount: '100000100' }), 'AMOUNT_OUT_OF_RANGE', 'amount'],
    // The quantity a USDT claim types is not what it credits (the chain's transfer is), but it
    // must still be a number of minor units when given.
    [
      { channel: 'usdt-erc20', quantity: '10.5', txId: txIdFor('usdt-erc20') },
      'VALIDATION_FAILED',
      'quantity',
    ],
    [{ channel: 'usdt-trc20' }, 'VALIDATION_FAILED', 'txId'],
    [{ channel: 'usdt-trc20', txId: 'abc' }, 'VALIDATION_FAILED', 'txId'],
    [{ channel: 'usdt-trc20', txId: txIdFor('usdt-erc20') }, 'VALIDATION_FAILED', 'txId'],
    [{ channel: 'usdt-erc20', txId: txIdFor('usdt-trc20') }, 'VALIDATION_FAILED', 'txId'],
    [{ channel: 'usdt-erc20', txId: `0x${'g'.repeat(64)}` }, 'VALIDATION_FAILED', 'txId'],
    [{ ...bank({}), resubmitOf: 'abc' }, 'VALIDATION_FAILED', 'resubmitOf'],
    [bank({ payerCard: 'not a card' }), 'VALIDATION_FAILED', 'payerCard'],
    [bank({ payerName: '' }), 'VALIDATION_FAILED', 'payerName'],
    [bank({ payerBank: 'b'.repeat(61) }), 'VALIDATION_FAILED', 'payerBank'],
    [bank({ remark: 'r'.repeat(141) }), 'VALIDATION_FAILED', 'remark'],
    [bank({ remark: 'r'.repeat(100_000) }), 'VALIDATION_FAILED', 'remark'],
  ])('POST /api/deposits %# refuses %j: %s on %s', async (fields, code, field) => {
    const res = await postDeposit(api, u.auth, fields);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code, field });
  });

  it.each([
    ['usdt-trc20', 999],
    ['usdt-erc20', 999],
    ['usdt-trc20', 100_000_001],
  ] as const)(
    'POST /api/deposits refuses a %s transfer of %i minor units: AMOUNT_OUT_OF_RANGE naming txId',
    async (channel, quantity) => {
      // Paid to the user's own address, so only its amount is wrong; whatever quantity is typed.
      const fields = await usdtClaimFields(api, u.auth, channel, quantity);
      const res = await postDeposit(api, u.auth, { ...fields, quantity: '10000' }, null);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', field: 'txId' });
    },
  );

  it('POST /api/deposits refuses a JSON body (no screenshot) and a repeated field', async () => {
    const json = await api.http
      .post('/api/deposits')
      .set(u.auth)
      .send(bankDepositFields(10_000))
      .expect(400);
    expect(json.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'screenshot' });
    const twice = await postDeposit(api, u.auth, bankDepositFields(10_000)).field(
      'amount',
      '20000',
    );
    expect(twice.status).toBe(400);
  });

  /** A valid body with `over` applied; a key set to undefined is left out. */
  const withdrawal = (over: Record<string, unknown>) => ({
    accountId: u.accountId,
    amount: 10_000,
    tradePassword: '123456',
    ...over,
  });
  it.each([
    [
      { accountId: undefined, amount: undefined, tradePassword: undefined },
      400,
      'VALIDATION_FAILED',
      'accountId',
    ],
    [{ accountId: 'abc' }, 400, 'VALIDATION_FAILED', 'accountId'],
    [{ accountId: -1 }, 400, 'VALIDATION_FAILED', 'accountId'],
    [{ accountId: 1.5 }, 400, 'VALIDATION_FAILED', 'accountId'],
    [{ accountId: null }, 400, 'VALIDATION_FAILED', 'accountId'],
    [{ accountId: '987654321' }, 404, 'NOT_FOUND', undefined],
    [{ amount: '' }, 400, 'VALIDATION_FAILED', 'amount'],
    [{ amount: 100.5 }, 400, 'VALIDATION_FAILED', 'amount'],
    [{ amount: 1e20 }, 400, 'VALIDATION_FAILED', 'amount'],
    [{ amount: true }, 400, 'VALIDATION_FAILED', 'amount'],
    [{ amount: [10_000] }, 400, 'VALIDATION_FAILED', 'amount'],
    [{ amount: -10_000 }, 400, 'AMOUNT_OUT_OF_RANGE', 'amount'],
    [{ amount: 0 }, 400, 'AMOUNT_OUT_OF_RANGE', 'amount'],
    [{ amount: 5_000_001 }, 400, 'AMOUNT_OUT_OF_RANGE', 'amount'],
    [{ amount: 100_001 }, 409, 'INSUFFICIENT_BALANCE', 'amount'],
    [{ tradePassword: undefined }, 400, 'VALIDATION_FAILED', 'tradePassword'],
    [{ tradePassword: 123456 }, 400, 'VALIDATION_FAILED', 'tradePassword'],
    [{ tradePassword: '1234567' }, 400, 'VALIDATION_FAILED', 'tradePassword'],
    [{ tradePassword: '000000' }, 403, 'WRONG_TRADE_PASSWORD', 'tradePassword'],
  ])('POST /api/withdrawals %# refuses %j: %i %s on %s', async (body, status, code, field) => {
    const res = await api.http.post('/api/withdrawals').set(u.auth).send(withdrawal(body));
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, ...(field ? { field } : {}) });
  });

  it('POST /api/withdrawals refuses someone else’s account, bad JSON, a huge body, a long key', async () => {
    await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .send(withdrawal({ accountId: other.accountId }))
      .expect(404);
    await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .set('Content-Type', 'application/json')
      .send('{"amount":')
      .expect(400);
    await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .send(withdrawal({ note: 'x'.repeat(100_000) }))
      .expect(413);
    const key = await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .set('Idempotency-Key', 'k'.repeat(256))
      .send(withdrawal({}))
      .expect(400);
    expect(key.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'Idempotency-Key' });
    await api.http.post('/api/withdrawals').send(withdrawal({})).expect(401);
  });

  it.each([
    ['/api/deposits?limit=0', 'limit'],
    ['/api/deposits?limit=101', 'limit'],
    ['/api/deposits?limit=ten', 'limit'],
    ['/api/deposits?limit=1&limit=2', 'limit'],
    ['/api/withdrawals?cursor=abc', 'cursor'],
    ['/api/withdrawals?cursor=-1', 'cursor'],
    ['/api/wallet/ledger?type=bonus', 'type'],
    ['/api/wallet/ledger?cursor=1.5', 'cursor'],
    ['/api/withdrawal-accounts/abc', 'id'],
    ['/api/withdrawal-accounts/0', 'id'],
  ])('GET %s → 400 naming %s', async (url, field) => {
    const res = await api.http.get(url).set(u.auth).expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
  });

  it.each([
    ['/api/ops/deposits?status=done', 'status'],
    ['/api/ops/withdrawals?status=approved', 'status'],
    ['/api/ops/withdrawals?limit=1000', 'limit'],
  ])('GET %s (operator) → 400 naming %s', async (url, field) => {
    const res = await api.http.get(url).set(opsAuth).expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
  });

  it('operator reviews refuse malformed ids, unknown ids and missing reasons', async () => {
    for (const kind of ['deposits', 'withdrawals']) {
      for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999'])
        expect(
          (await api.http.post(`/api/ops/${kind}/${id}/approve`).set(opsAuth)).body.error,
        ).toMatchObject({ code: 'VALIDATION_FAILED', field: 'id' });
      const unknown = await api.http.post(`/api/ops/${kind}/987654321/approve`).set(opsAuth);
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
      for (const body of [
        {},
        { reason: '' },
        { reason: '   ' },
        { reason: 'r'.repeat(201) },
        { reason: 5 },
      ])
        expect(
          (await api.http.post(`/api/ops/${kind}/987654321/reject`).set(opsAuth).send(body)).body
            .error,
        ).toMatchObject({ code: 'VALIDATION_FAILED', field: 'reason' });
    }
  });

  it('a pending deposit of another user cannot be seen through the user endpoints', async () => {
    const id = await deposit(api, other, 5000);
    const mine = await api.http.get('/api/deposits').set(u.auth).expect(200);
    expect(itemsOf(mine).map((d) => d.id)).not.toContain(id);
    await api.http.post(`/api/ops/deposits/${id}/reject`).set(opsAuth).send({ reason: 'test' });
    // This test writes one deposit (and its screenshot); count it as setup.
    before.deposits! += 1;
    before.uploads! += 1;
  });
});
