import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import {
  bankDepositFields,
  deposit,
  expectLedgerOk,
  itemsOf,
  opsAuth,
  postDeposit,
  txIdFor,
  usdtDepositFields,
} from '@tests/support/wallet';

/** USDT transaction ids (DECISIONS.md, Deposit transaction ids) and resubmitted deposits. */
describe.each(dbDrivers())('deposit evidence on %s', (kind) => {
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
  /** The deposit as the operators' queue lists it. */
  const opsDeposit = async (id: string) => {
    const res = await api.http.get('/api/ops/deposits?limit=100').set(opsAuth).expect(200);
    return itemsOf<Record<string, unknown>>(res).find((d) => d.id === id);
  };
  const reject = (id: string) =>
    api.http.post(`/api/ops/deposits/${id}/reject`).set(opsAuth).send({ reason: 'no transfer' });

  it('takes a TRC20 deposit with its transaction id and no screenshot; operators see the id', async () => {
    const u = await registerUser(api, 'txid');
    const txId = txIdFor('usdt-trc20').toUpperCase();
    const res = await postDeposit(
      api,
      u.auth,
      { channel: 'usdt-trc20', quantity: '10000', txId },
      null,
    ).expect(201);
    expect(res.body).toMatchObject({ channel: 'usdt-trc20', txId: txId.toLowerCase() });
    expect(res.body).not.toHaveProperty('screenshotId');
    const { rows } = await t.db.query<{ tx_id: string }>(
      'SELECT tx_id FROM deposits WHERE id = $1',
      [res.body.id],
    );
    expect(rows[0]!.tx_id).toBe(txId.toLowerCase());
    expect(await opsDeposit(res.body.id as string)).toMatchObject({
      txId: txId.toLowerCase(),
      userAccount: u.account,
    });
  });

  it('takes an ERC20 id with 0x, with a screenshot too; refuses ids of the wrong form naming txId', async () => {
    const u = await registerUser(api, 'txid');
    const ok = await postDeposit(api, u.auth, usdtDepositFields('usdt-erc20', 10_000)).expect(201);
    expect(ok.body.txId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(typeof ok.body.screenshotId).toBe('string');
    for (const [channel, txId] of [
      ['usdt-trc20', `0x${'a'.repeat(64)}`],
      ['usdt-trc20', 'a'.repeat(63)],
      ['usdt-erc20', 'a'.repeat(64)],
      ['usdt-erc20', `0x${'z'.repeat(64)}`],
      ['usdt-erc20', ''],
    ] as const) {
      const res = await postDeposit(api, u.auth, { channel, quantity: '10000', txId }, null);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'txId' });
    }
    // A bank deposit still needs its screenshot.
    const bank = await postDeposit(api, u.auth, bankDepositFields(10_000), null).expect(400);
    expect(bank.body.error).toMatchObject({ field: 'screenshot' });
  });

  it('refuses a transaction id another live deposit names (409); a rejected one frees it', async () => {
    const [a, b] = [await registerUser(api, 'txid'), await registerUser(api, 'txid')];
    const fields = usdtDepositFields('usdt-trc20', 20_000);
    const first = await postDeposit(api, a.auth, fields, null).expect(201);
    for (const [user, txId] of [
      [b, fields.txId],
      [a, fields.txId.toUpperCase()],
    ] as const) {
      const dup = await postDeposit(api, user.auth, { ...fields, txId }, null).expect(409);
      expect(dup.body.error).toMatchObject({ code: 'TX_ID_IN_USE', field: 'txId' });
    }
    await api.http.post(`/api/ops/deposits/${first.body.id}/approve`).set(opsAuth).expect(200);
    await postDeposit(api, b.auth, fields, null).expect(409);
    // Rejected: the id may back a corrected claim.
    const other = usdtDepositFields('usdt-erc20', 20_000);
    const rejected = await postDeposit(api, a.auth, other, null).expect(201);
    await reject(rejected.body.id as string).expect(200);
    await postDeposit(api, a.auth, other, null).expect(201);
    await expectLedgerOk(api);
  });

  it('resubmits a rejected deposit once, linked to it; refuses others’ and unrejected ones', async () => {
    const [a, b] = [await registerUser(api, 'resub'), await registerUser(api, 'resub')];
    const rejectedId = await deposit(api, a, 30_000);
    const pendingId = await deposit(api, a, 40_000);
    await reject(rejectedId).expect(200);

    const notMine = await postDeposit(api, b.auth, {
      ...bankDepositFields(30_000),
      resubmitOf: rejectedId,
    }).expect(404);
    expect(notMine.body.error.code).toBe('NOT_FOUND');
    await postDeposit(api, a.auth, { ...bankDepositFields(30_000), resubmitOf: '999999' }).expect(
      404,
    );
    const pending = await postDeposit(api, a.auth, {
      ...bankDepositFields(40_000),
      resubmitOf: pendingId,
    }).expect(409);
    expect(pending.body.error).toMatchObject({ code: 'INVALID_STATE', field: 'resubmitOf' });

    const again = await postDeposit(api, a.auth, {
      ...bankDepositFields(30_000),
      resubmitOf: rejectedId,
    }).expect(201);
    expect(again.body).toMatchObject({ status: 'pending', resubmittedFrom: rejectedId });
    expect(again.body.id).not.toBe(rejectedId);
    expect(await opsDeposit(again.body.id as string)).toMatchObject({
      resubmittedFrom: rejectedId,
    });

    const twice = await postDeposit(api, a.auth, {
      ...bankDepositFields(30_000),
      resubmitOf: rejectedId,
    }).expect(409);
    expect(twice.body.error).toMatchObject({ code: 'ALREADY_RESUBMITTED', field: 'resubmitOf' });
    // Nothing was written by the refusals: a, then, has the two first and the one resubmission.
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM deposits WHERE user_id = $1',
      [a.user.id],
    );
    expect(rows[0]!.n).toBe(3);
  });
});
