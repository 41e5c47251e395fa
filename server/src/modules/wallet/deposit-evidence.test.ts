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
  summaryOf,
  txIdFor,
  usdtClaimFields,
  type TestUser,
} from '@tests/support/wallet';

/**
 * USDT claims (DECISIONS.md, Deposit transaction ids; USDT deposits by address): a claim names a
 * transaction the network's node shows paid the user's own address. Then resubmitted deposits.
 */
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
  const depositsOf = async (u: TestUser) => {
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM deposits WHERE user_id = $1',
      [u.user.id],
    );
    return rows[0]!.n;
  };
  const ownAddress = async (u: TestUser, channel: 'usdt-trc20' | 'usdt-erc20') => {
    const res = await api.http.get('/api/deposits/channels').set(u.auth).expect(200);
    return (res.body as { channel: string; address: string }[]).find((c) => c.channel === channel)!
      .address;
  };

  it('takes a TRC20 claim with its transaction id and no screenshot; operators see the id and the transfer', async () => {
    const u = await registerUser(api, 'txid');
    const fields = await usdtClaimFields(api, u.auth, 'usdt-trc20', 10_000);
    // Hex has no case: an id typed in capitals names the same transaction.
    const res = await postDeposit(
      api,
      u.auth,
      { ...fields, txId: fields.txId!.toUpperCase() },
      null,
    ).expect(201);
    expect(res.body).toMatchObject({
      channel: 'usdt-trc20',
      txId: fields.txId,
      quantity: 10_000,
      amount: 10_000,
      status: 'pending',
      source: 'claim',
      chain: { toAddress: await ownAddress(u, 'usdt-trc20'), logIndex: 0 },
    });
    expect(res.body).not.toHaveProperty('screenshotId');
    const { rows } = await t.db.query<{ tx_id: string }>(
      'SELECT tx_id FROM deposits WHERE id = $1',
      [res.body.id],
    );
    expect(rows[0]!.tx_id).toBe(fields.txId);
    expect(await opsDeposit(res.body.id as string)).toMatchObject({
      txId: fields.txId,
      userAccount: u.account,
      chain: res.body.chain,
    });
  });

  it('takes an ERC20 claim with 0x, with a screenshot too; refuses ids of the wrong form naming txId before asking the node', async () => {
    const u = await registerUser(api, 'txid');
    const fields = await usdtClaimFields(api, u.auth, 'usdt-erc20', 10_000);
    const ok = await postDeposit(api, u.auth, fields).expect(201);
    expect(ok.body.txId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(ok.body.txId).toBe(fields.txId);
    expect(typeof ok.body.screenshotId).toBe('string');
    expect(ok.body.chain).toMatchObject({
      toAddress: (await ownAddress(u, 'usdt-erc20')).toLowerCase(),
      requiredConfirmations: 12,
      explorerUrl: `https://etherscan.io/tx/${fields.txId}`,
    });
    // The form is checked first: with both nodes unreachable these are still 400, not 503.
    api.chain.TRC20.down = api.chain.ERC20.down = true;
    try {
      for (const [channel, txId] of [
        ['usdt-trc20', `0x${'a'.repeat(64)}`],
        ['usdt-trc20', 'a'.repeat(63)],
        ['usdt-erc20', 'a'.repeat(64)],
        ['usdt-erc20', `0x${'z'.repeat(64)}`],
        ['usdt-erc20', ''],
      ] as const) {
        const res = await postDeposit(api, u.auth, { channel, txId }, null);
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'txId' });
      }
    } finally {
      api.chain.TRC20.down = api.chain.ERC20.down = false;
    }
    // A bank deposit still needs its screenshot.
    const bank = await postDeposit(api, u.auth, bankDepositFields(10_000), null).expect(400);
    expect(bank.body.error).toMatchObject({ field: 'screenshot' });
    expect(await depositsOf(u)).toBe(1);
  });

  it('refuses a transaction the node does not know (422), and says when the node cannot be asked (503), writing nothing', async () => {
    const u = await registerUser(api, 'txid');
    for (const channel of ['usdt-trc20', 'usdt-erc20'] as const) {
      const unknown = await postDeposit(
        api,
        u.auth,
        { channel, txId: txIdFor(channel) },
        null,
      ).expect(422);
      expect(unknown.body.error).toMatchObject({ code: 'TX_NOT_FOUND', field: 'txId' });
    }
    // A real transfer, while the node is unreachable: try again later, nothing is recorded.
    const fields = await usdtClaimFields(api, u.auth, 'usdt-trc20', 10_000);
    api.chain.TRC20.down = true;
    try {
      const down = await postDeposit(api, u.auth, fields, null).expect(503);
      expect(down.body.error).toMatchObject({ code: 'CHAIN_UNAVAILABLE' });
      expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
      // The other network is not affected.
      const erc = await usdtClaimFields(api, u.auth, 'usdt-erc20', 10_000);
      await postDeposit(api, u.auth, erc, null).expect(201);
    } finally {
      api.chain.TRC20.down = false;
    }
    expect(await depositsOf(u)).toBe(1);
    await postDeposit(api, u.auth, fields, null).expect(201);

    // An api with no node configured for a network cannot check its claims either.
    const noNodes = await buildTestApi(t.db, { chain: {} });
    try {
      const v = await registerUser(noNodes, 'txid');
      const res = await postDeposit(
        noNodes,
        v.auth,
        { channel: 'usdt-erc20', txId: txIdFor('usdt-erc20') },
        null,
      ).expect(503);
      expect(res.body.error).toMatchObject({ code: 'CHAIN_UNAVAILABLE' });
      expect(await depositsOf(v)).toBe(0);
    } finally {
      await noNodes.close();
    }
  });

  it('counts a claim against the deposit rate before the node is asked', async () => {
    const u = await registerUser(api, 'txid');
    for (let i = 0; i < 10; i++)
      await postDeposit(
        api,
        u.auth,
        { channel: 'usdt-trc20', txId: txIdFor('usdt-trc20') },
        null,
      ).expect(422);
    // The 11th in the hour is refused by the rate, not by the node (which is unreachable now).
    api.chain.TRC20.down = true;
    try {
      const limited = await postDeposit(
        api,
        u.auth,
        { channel: 'usdt-trc20', txId: txIdFor('usdt-trc20') },
        null,
      ).expect(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
    } finally {
      api.chain.TRC20.down = false;
    }
    expect(await depositsOf(u)).toBe(0);
  });

  it('takes a claim only of a transfer to the claimant’s own address, once while it is live; a rejected one is free again for its claimant only', async () => {
    const [a, b] = [await registerUser(api, 'txid'), await registerUser(api, 'txid')];
    const fields = await usdtClaimFields(api, a.auth, 'usdt-trc20', 20_000);
    // B names A's transfer: it paid A's address, not B's.
    const notB = await postDeposit(api, b.auth, fields, null).expect(409);
    expect(notB.body.error).toMatchObject({ code: 'TX_NOT_TO_YOUR_ADDRESS', field: 'txId' });
    // Nor is a transfer B sent to someone else's address (say, a shared one) B's to claim.
    const elsewhere = api.chain.TRC20.pay('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', 20_000n * 10_000n);
    const toOther = await postDeposit(
      api,
      b.auth,
      { channel: 'usdt-trc20', txId: elsewhere },
      null,
    ).expect(409);
    expect(toOther.body.error).toMatchObject({ code: 'TX_NOT_TO_YOUR_ADDRESS', field: 'txId' });

    const first = await postDeposit(api, a.auth, fields, null).expect(201);
    /**
     * A naming the transfer again (in capitals) is refused TX_ID_IN_USE; B still learns only that
     * it did not pay B (nothing about A's deposits).
     */
    const expectInUse = async (txId: string) => {
      const again = { ...fields, txId: txId.toUpperCase().replace(/^0X/, '0x') };
      const dup = await postDeposit(api, a.auth, again, null).expect(409);
      expect(dup.body.error).toMatchObject({ code: 'TX_ID_IN_USE', field: 'txId' });
      const byB = await postDeposit(api, b.auth, { ...fields, txId }, null).expect(409);
      expect(byB.body.error).toMatchObject({ code: 'TX_NOT_TO_YOUR_ADDRESS', field: 'txId' });
    };
    await expectInUse(fields.txId!);
    await api.http.post(`/api/ops/deposits/${first.body.id}/approve`).set(opsAuth).expect(200);
    await expectInUse(fields.txId!);
    // A retry of the first claim with its Idempotency-Key answers as the first did.
    const keyed = await usdtClaimFields(api, a.auth, 'usdt-trc20', 15_000);
    const key = { ...a.auth, 'Idempotency-Key': `claim-${keyed.txId}` };
    const once = await postDeposit(api, key, keyed, null).expect(201);
    const replay = await postDeposit(api, key, keyed, null).expect(201);
    expect(replay.body.id).toBe(once.body.id);
    await reject(once.body.id as string).expect(200);

    // Rejected: the transfer may back A's corrected claim, and no one else's.
    const other = await usdtClaimFields(api, a.auth, 'usdt-erc20', 20_000);
    const rejected = await postDeposit(api, a.auth, other, null).expect(201);
    await reject(rejected.body.id as string).expect(200);
    const stillNotB = await postDeposit(api, b.auth, other, null).expect(409);
    expect(stillNotB.body.error).toMatchObject({ code: 'TX_NOT_TO_YOUR_ADDRESS', field: 'txId' });
    const corrected = await postDeposit(api, a.auth, other, null).expect(201);
    expect(corrected.body).toMatchObject({ txId: other.txId, status: 'pending', amount: 20_000 });
    const twice = await postDeposit(api, a.auth, other, null).expect(409);
    expect(twice.body.error.code).toBe('TX_ID_IN_USE');
    expect(await depositsOf(a)).toBe(4);
    expect(await depositsOf(b)).toBe(0);
    expect((await summaryOf(api, a)).available).toBe(20_000);
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
