import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { inspect } from '@tests/support/images';
import {
  bankDepositFields,
  deposit,
  expectLedgerOk,
  itemsOf,
  opsAuth,
  postDeposit,
  summaryOf,
  usdtClaimFields,
  type TestUser,
} from '@tests/support/wallet';

describe.each(dbDrivers())('deposits on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  let alice: TestUser;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { env: { USDT_RATE: '7.25' } });
    alice = await registerUser(api, 'dep');
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  it('shows the platform’s bank details and the user’s own USDT addresses, the same each time', async () => {
    const res = await api.http.get('/api/deposits/channels').set(alice.auth).expect(200);
    expect((res.body as { channel: string }[]).map((c) => c.channel)).toEqual([
      'bank',
      'usdt-trc20',
      'usdt-erc20',
    ]);
    expect(res.body[0]).toMatchObject({
      bankName: 'Example Bank (demo)',
      country: 'CN',
      demo: true,
      arrival: { withinMinutes: 30 },
      min: 1000,
      max: 100_000_000,
    });
    expect(res.body[0]).not.toHaveProperty('branch');
    expect(res.body[1]).toMatchObject({
      network: 'TRC20',
      rate: '7.25',
      // Derived from the demo key of a public test wallet: labelled demo.
      demo: true,
      arrival: { confirmations: 20, withinMinutes: 5 },
      min: 1000,
      max: 100_000_000,
    });
    expect(res.body[2]).toMatchObject({
      network: 'ERC20',
      rate: '7.25',
      demo: true,
      arrival: { confirmations: 12, withinMinutes: 10 },
    });
    const own = [res.body[1].address as string, res.body[2].address as string];
    expect(own[0]).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(own[1]).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // The user's own: the same on every visit, and another user's are others.
    const again = await api.http.get('/api/deposits/channels').set(alice.auth).expect(200);
    expect([again.body[1].address, again.body[2].address]).toEqual(own);
    const bob = await registerUser(api, 'dep');
    const bobs = await api.http.get('/api/deposits/channels').set(bob.auth).expect(200);
    expect(bobs.body[0]).toEqual(res.body[0]);
    for (const i of [1, 2]) {
      expect(bobs.body[i].address).toMatch(i === 1 ? /^T/ : /^0x/);
      expect(own).not.toContain(bobs.body[i].address);
    }
    await api.http.get('/api/deposits/channels').expect(401);
  });

  it('records a bank deposit under review, then credits it once an operator approves', async () => {
    const user = await registerUser(api, 'dep');
    const res = await postDeposit(api, user.auth, {
      ...bankDepositFields(250_000),
      remark: 'rent',
    }).expect(201);
    expect(res.body).toMatchObject({
      channel: 'bank',
      amount: 250_000,
      status: 'pending',
      remark: 'rent',
      source: 'claim',
    });
    expect(res.body).not.toHaveProperty('reviewedAt');
    expect(res.body).not.toHaveProperty('chain');
    expect((await summaryOf(api, user)).available).toBe(0);

    const pending = await api.http.get('/api/ops/deposits?status=pending').set(opsAuth).expect(200);
    const item = itemsOf<Record<string, string>>(pending).find((d) => d.id === res.body.id)!;
    expect(item).toMatchObject({
      userId: user.user.id,
      userAccount: user.account,
      payerBank: 'Bank of Tests',
      payerCard: '6222020012345678',
      payerName: 'Test Payer',
    });
    // The operator can look at the screenshot: the PNG that was sent, encoded again without its
    // metadata (uploads.test.ts).
    const shot = await api.http.get(`/api/uploads/${item.screenshotId}`).set(opsAuth).expect(200);
    expect(shot.headers['content-type']).toBe('image/png');
    expect(await inspect(shot.body as Buffer)).toMatchObject({
      format: 'png',
      width: 1,
      height: 1,
    });

    const approved = await api.http
      .post(`/api/ops/deposits/${res.body.id}/approve`)
      .set(opsAuth)
      .expect(200);
    expect(approved.body).toMatchObject({ status: 'approved' });
    expect(typeof approved.body.reviewedAt).toBe('number');
    const s = await summaryOf(api, user);
    expect(s).toMatchObject({ available: 250_000, totalAssets: 250_000, withdrawHold: 0 });
    const events = api.userEvents.sent.filter((e) => e.userId === user.user.id);
    expect(events.at(-1)).toMatchObject({ event: 'balance', payload: { available: 250_000 } });

    const ledger = await api.http.get('/api/wallet/ledger').set(user.auth).expect(200);
    expect(ledger.body).toEqual({
      items: [
        {
          id: expect.any(String),
          type: 'deposit',
          amount: 250_000,
          balanceAfter: 250_000,
          createdAt: expect.any(Number),
          ref: `deposit:${res.body.id}`,
        },
      ],
      nextCursor: null,
    });
    const mine = await api.http.get('/api/deposits').set(user.auth).expect(200);
    expect(mine.body.items[0]).toMatchObject({ id: res.body.id, status: 'approved' });
    await expectLedgerOk(api);
  });

  it('records a USDT claim with the chain’s amount and facts, converted at the configured rate', async () => {
    const user = await registerUser(api, 'dep');
    const channels = await api.http.get('/api/deposits/channels').set(user.auth).expect(200);
    const fields = await usdtClaimFields(api, user.auth, 'usdt-trc20', 1001);
    api.chain.TRC20.mine(4); // the transfer's block and 4 more: 5 confirmations
    // The quantity the user types is not what is credited: the chain's transfer is.
    const res = await postDeposit(api, user.auth, { ...fields, quantity: '500000' }, null).expect(
      201,
    );
    // 10.01 USDT × 7.25 = 72.5725 → 72.57
    expect(res.body).toMatchObject({
      channel: 'usdt-trc20',
      quantity: 1001,
      rate: '7.25',
      amount: 7257,
      txId: fields.txId,
      status: 'pending',
      source: 'claim',
      chain: {
        fromAddress: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
        toAddress: channels.body[1].address,
        blockNumber: expect.any(Number),
        logIndex: 0,
        confirmations: 5,
        requiredConfirmations: 20,
        explorerUrl: `https://tronscan.org/#/transaction/${fields.txId}`,
      },
    });
    const mine = await api.http.get('/api/deposits').set(user.auth).expect(200);
    expect(mine.body.items).toEqual([res.body]);
    await api.http.post(`/api/ops/deposits/${res.body.id}/approve`).set(opsAuth).expect(200);
    expect((await summaryOf(api, user)).available).toBe(7257);

    // 1.00 USDT comes to 7.25: under the minimum, named by the transaction that paid it.
    const small = await postDeposit(
      api,
      user.auth,
      await usdtClaimFields(api, user.auth, 'usdt-erc20', 100),
      null,
    ).expect(400);
    expect(small.body.error).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', field: 'txId' });
    await expectLedgerOk(api);
  });

  it('rejects with a reason the user sees, moving no money; a second review is refused', async () => {
    const user = await registerUser(api, 'dep');
    const id = await deposit(api, user, 5000);
    const res = await api.http
      .post(`/api/ops/deposits/${id}/reject`)
      .set(opsAuth)
      .send({ reason: 'No transfer arrived' })
      .expect(200);
    expect(res.body).toMatchObject({ status: 'rejected', reason: 'No transfer arrived' });
    const mine = await api.http.get('/api/deposits').set(user.auth).expect(200);
    expect(mine.body.items[0]).toMatchObject({ status: 'rejected', reason: 'No transfer arrived' });
    for (const action of ['approve', 'reject']) {
      const again = await api.http
        .post(`/api/ops/deposits/${id}/${action}`)
        .set(opsAuth)
        .send({ reason: 'again' })
        .expect(409);
      expect(again.body.error.code).toBe('INVALID_STATE');
    }
    expect((await summaryOf(api, user)).available).toBe(0);
    await expectLedgerOk(api);
  });

  it('pages the user’s deposits newest first with a cursor', async () => {
    const user = await registerUser(api, 'dep');
    const ids = [];
    for (const amount of [1000, 2000, 3000, 4000, 5000]) ids.push(await deposit(api, user, amount));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { items: { id: string }[]; nextCursor: string | null } } = await api.http
        .get(`/api/deposits?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
        .set(user.auth)
        .expect(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...itemsOf(res).map((d) => d.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids.reverse());
  });

  it('lists one channel’s deposits when asked; a channel it does not know is 400 VALIDATION_FAILED', async () => {
    const user = await registerUser(api, 'dep');
    const bank = await deposit(api, user, 1000);
    const fields = await usdtClaimFields(api, user.auth, 'usdt-trc20', 1001);
    api.chain.TRC20.mine(4);
    const usdt = await postDeposit(api, user.auth, fields, null).expect(201);
    const listed = async (channel: string) => {
      const res = await api.http.get(`/api/deposits?channel=${channel}`).set(user.auth).expect(200);
      return itemsOf(res).map((d) => d.id);
    };
    expect(await listed('bank')).toEqual([bank]);
    expect(await listed('usdt-trc20')).toEqual([usdt.body.id]);
    expect(await listed('usdt-erc20')).toEqual([]);
    const all = await api.http.get('/api/deposits').set(user.auth).expect(200);
    expect(itemsOf(all).map((d) => d.id)).toEqual([usdt.body.id, bank]);
    for (const channel of ['paypal', 'BANK', '']) {
      const bad = await api.http.get(`/api/deposits?channel=${channel}`).set(user.auth).expect(400);
      expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'channel' });
    }
  });

  it('lists only the user’s own deposits', async () => {
    const bob = await registerUser(api, 'dep');
    await deposit(api, alice, 1000);
    const res = await api.http.get('/api/deposits').set(bob.auth).expect(200);
    expect(res.body).toEqual({ items: [], nextCursor: null });
  });

  describe('throttles', () => {
    const filesOnDisk = () => fs.readdirSync(api.uploadsDir).length;
    const countOf = async (table: 'deposits' | 'uploads', userId: string) => {
      const column = table === 'deposits' ? 'user_id' : 'owner_id';
      const { rows } = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`,
        [Number(userId)],
      );
      return rows[0]!.n;
    };

    it('lets exactly 5 of 10 deposits sent at once wait for review; the others leave no file and no row', async () => {
      const user = await registerUser(api, 'dep');
      const files = filesOnDisk();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          postDeposit(api, user.auth, bankDepositFields(1000 * (i + 1))),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([
        ...Array<number>(5).fill(201),
        ...Array<number>(5).fill(409),
      ]);
      for (const a of answers.filter((x) => x.status === 409))
        expect(a.body.error).toMatchObject({ code: 'TOO_MANY_PENDING_DEPOSITS' });
      expect(await countOf('deposits', user.user.id)).toBe(5);
      expect(await countOf('uploads', user.user.id)).toBe(5);
      // Refused submissions had their screenshots staged; each was removed before its answer.
      expect(filesOnDisk()).toBe(files + 5);
    });

    it('takes a deposit again once one under review is reviewed, and counts per user', async () => {
      const user = await registerUser(api, 'dep');
      const other = await registerUser(api, 'dep');
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await deposit(api, user, 1000));
      const sixth = await postDeposit(api, user.auth, bankDepositFields(1000)).expect(409);
      expect(sixth.body.error.code).toBe('TOO_MANY_PENDING_DEPOSITS');
      await deposit(api, other, 1000);
      await api.http
        .post(`/api/ops/deposits/${ids[0]}/reject`)
        .set(opsAuth)
        .send({ reason: 'x' })
        .expect(200);
      await deposit(api, user, 1000);
      await postDeposit(api, user.auth, bankDepositFields(1000)).expect(409);
    });

    it('takes 10 deposits per user an hour, then 429 RATE_LIMITED writing nothing', async () => {
      const user = await registerUser(api, 'dep');
      const other = await registerUser(api, 'dep');
      for (let i = 0; i < 10; i++) {
        const id = await deposit(api, user, 1000);
        await api.http.post(`/api/ops/deposits/${id}/approve`).set(opsAuth).expect(200);
      }
      const files = filesOnDisk();
      const limited = await postDeposit(api, user.auth, bankDepositFields(1000)).expect(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(filesOnDisk()).toBe(files);
      expect(await countOf('deposits', user.user.id)).toBe(10);
      expect((await summaryOf(api, user)).available).toBe(10_000);
      // Another user is not affected.
      await deposit(api, other, 1000);
    });
  });

  it('refuses operator calls without the operator token', async () => {
    await api.http.get('/api/ops/deposits').expect(401);
    // A trader's session is no operator credential: 401, as with none.
    await api.http.get('/api/ops/deposits').set(alice.auth).expect(401);
    await api.http.post('/api/ops/deposits/1/approve').set(alice.auth).expect(401);
    await api.http.get('/api/ops/ledger/check').set(alice.auth).expect(401);
  });
});
