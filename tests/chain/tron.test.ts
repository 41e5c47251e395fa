import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { openTestDb, type TestDb } from '@tests/support/db';
import { startTronStandIn, type TronStandIn } from '@tests/support/tron-standin';
import { postDeposit } from '@tests/support/wallet';
import { checkLedger } from '@server/modules/ledger/ledger';
import { tronSource } from '@server/modules/wallet/chain/tron-source';
import { createWatcher, type Watcher } from '@server/modules/wallet/chain/watcher';
import type { Deposit } from '@shared/wallet/model';

const USDT = 1_000_000n;
const CONFIRMATIONS = 20;

/**
 * The TRC20 path against a stand-in that answers as TronGrid documents (tests/support/
 * tron-standin.ts): no TRON node can run here. Its events come two to a page, so the client's
 * paging is exercised.
 */
describe('the TRC20 watcher and claims through the TronGrid API', { timeout: 90_000 }, () => {
  let tron: TronStandIn;
  let t: TestDb;
  let api: TestApi;
  let watcher: Watcher;
  const users: { auth: Record<string, string>; address: string }[] = [];

  const depositsOf = async (i: number) =>
    (await api.http.get('/api/deposits').set(users[i]!.auth).expect(200)).body.items as Deposit[];
  const balanceOf = async (i: number) =>
    (await api.http.get('/api/account/summary').set(users[i]!.auth).expect(200)).body
      .available as number;

  beforeAll(async () => {
    tron = await startTronStandIn({ pageSize: 2 });
    t = await openTestDb('pglite');
    const source = tronSource({ apiUrl: tron.url, contract: tron.contract });
    api = await buildTestApi(t.db, { chain: { TRC20: source } });
    for (const name of ['tina', 'tom']) {
      const u = await registerUser(api, name);
      const channels = await api.http.get('/api/deposits/channels').set(u.auth).expect(200);
      const address = (channels.body as { channel: string; address: string }[]).find(
        (c) => c.channel === 'usdt-trc20',
      )!.address;
      users.push({ auth: u.auth, address });
    }
    watcher = createWatcher({
      db: t.db,
      source,
      confirmations: CONFIRMATIONS,
      startBlock: 1000,
      range: 100,
      autoCreditMax: 10_000_000,
      usdtRate: '1',
      userEvents: api.userEvents,
      summaries: { publish: () => Promise.resolve() },
    });
  });

  afterAll(async () => {
    await api?.close();
    await t?.drop();
    await tron?.close();
  });

  it('gives each user a TRON address, sees a transfer confirming and credits it once', async () => {
    expect(users[0]!.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(users[1]!.address).not.toBe(users[0]!.address);
    const txId = tron.pay(users[0]!.address, 75n * USDT);
    await watcher.round();
    expect((await depositsOf(0))[0]).toMatchObject({
      channel: 'usdt-trc20',
      status: 'confirming',
      txId,
      chain: { toAddress: users[0]!.address, confirmations: 1, requiredConfirmations: 20 },
    });
    tron.mine(CONFIRMATIONS - 1);
    await watcher.round();
    expect((await depositsOf(0))[0]).toMatchObject({ status: 'approved', amount: 7_500 });
    await watcher.round();
    expect(await balanceOf(0)).toBe(7_500);
  });

  it('reads a transaction of many transfers across pages, each to its own user', async () => {
    const to = [0, 1, 0, 1, 1].map((i) => users[i]!.address);
    const txId = tron.payMany(
      to,
      [1n, 2n, 3n, 4n, 5n].map((n) => n * 10n * USDT),
    );
    tron.mine(CONFIRMATIONS);
    const before = tron.hits.get(`/v1/contracts/${tron.contract}/events`) ?? 0;
    const round = await watcher.round();
    expect(round.credited).toBe(5);
    expect((tron.hits.get(`/v1/contracts/${tron.contract}/events`) ?? 0) - before).toBe(3);
    expect(
      (await depositsOf(0))
        .filter((d) => d.txId === txId)
        .map((d) => d.amount)
        .sort(),
    ).toEqual([1_000, 3_000]);
    expect(await balanceOf(1)).toBe(11_000);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });

  it('drops a transfer a reorganisation removed before its confirmations', async () => {
    const txId = tron.pay(users[1]!.address, 9n * USDT * 10n);
    tron.mine(2);
    await watcher.round();
    expect((await depositsOf(1)).find((d) => d.txId === txId)?.status).toBe('confirming');
    tron.rollBack(3);
    tron.mine(CONFIRMATIONS + 3);
    await watcher.round();
    expect((await depositsOf(1)).find((d) => d.txId === txId)?.status).toBe('dropped');
    expect(await balanceOf(1)).toBe(11_000);
  });

  it('checks claims on TRON: another user’s transfer and an unknown one are refused', async () => {
    const txId = tron.pay(users[0]!.address, 20n * USDT);
    const stolen = await postDeposit(api, users[1]!.auth, { channel: 'usdt-trc20', txId }, null);
    expect(stolen.status).toBe(409);
    expect(stolen.body.error.code).toBe('TX_NOT_TO_YOUR_ADDRESS');
    const unknown = await postDeposit(
      api,
      users[1]!.auth,
      { channel: 'usdt-trc20', txId: 'cd'.repeat(32) },
      null,
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('TX_NOT_FOUND');
    const own = await postDeposit(api, users[0]!.auth, { channel: 'usdt-trc20', txId }, null);
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({
      status: 'pending',
      amount: 2_000,
      chain: { toAddress: users[0]!.address },
    });
  });
});
