import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { startLocalChain, type LocalChain } from '@tests/support/chain';
import { openTestDb, type TestDb } from '@tests/support/db';
import { opsAuth } from '@tests/support/wallet';
import { checkLedger } from '@server/modules/ledger/ledger';
import { evmSource } from '@server/modules/wallet/chain/evm-source';
import { createWatcher, type Watcher } from '@server/modules/wallet/chain/watcher';
import type { Deposit } from '@shared/wallet/model';

const USDT = 1_000_000n; // base units of one USDT (6 decimals)
const CONFIRMATIONS = 12;

/**
 * Issue 35, must-show 1: USDT deposits by address on a real local Ethereum node (Hardhat's
 * network) with a real ERC-20, the watcher's rounds driven one at a time so each step is seen.
 */
describe('the ERC20 watcher on a local Ethereum node', { timeout: 120_000 }, () => {
  let chain: LocalChain;
  let t: TestDb;
  let api: TestApi;
  let watcher: Watcher;
  let alice: Awaited<ReturnType<typeof registerUser>>;
  let aliceAddress = '';

  const deposits = async () =>
    (await api.http.get('/api/deposits').set(alice.auth).expect(200)).body.items as Deposit[];
  const balance = async () =>
    (await api.http.get('/api/account/summary').set(alice.auth).expect(200)).body
      .available as number;
  const creditsOf = async (depositId: string) =>
    Number(
      (
        await t.db.query<{ n: string }>(
          "SELECT count(*) AS n FROM transfers WHERE ref = $1 AND kind = 'deposit'",
          [`deposit:${depositId}`],
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    chain = await startLocalChain();
    t = await openTestDb('pglite');
    const source = evmSource({ rpcUrl: chain.url, contract: chain.token });
    api = await buildTestApi(t.db, { chain: { ERC20: source } });
    alice = await registerUser(api, 'alice');
    const channels = await api.http.get('/api/deposits/channels').set(alice.auth).expect(200);
    aliceAddress = (channels.body as { channel: string; address: string }[]).find(
      (c) => c.channel === 'usdt-erc20',
    )!.address;
    watcher = createWatcher({
      db: t.db,
      source,
      confirmations: CONFIRMATIONS,
      startBlock: (await chain.head()) + 1,
      range: 500,
      autoCreditMax: 100_000, // 1 000.00: above it, an operator decides
      usdtRate: '1',
      userEvents: api.userEvents,
      summaries: { publish: () => Promise.resolve() },
    });
  }, 90_000);

  afterAll(async () => {
    await api?.close();
    await t?.drop();
    await chain?.stop();
  });

  it('shows a transfer confirming, then credits 250.00 exactly once', async () => {
    expect(aliceAddress).toMatch(/^0x[0-9a-f]{40}$/);
    const before = await balance();
    const paid = await chain.pay(aliceAddress, 250n * USDT);
    await watcher.round();
    let [d] = await deposits();
    expect(d).toMatchObject({
      channel: 'usdt-erc20',
      source: 'chain',
      status: 'confirming',
      amount: 25_000,
      quantity: 25_000,
      txId: paid.txHash,
      chain: {
        toAddress: aliceAddress,
        fromAddress: chain.treasury.toLowerCase(),
        blockNumber: paid.block,
        confirmations: 1,
        requiredConfirmations: CONFIRMATIONS,
      },
    });
    // The user's sockets heard it as soon as it was seen.
    expect(
      api.userEvents.sent.some((e) => e.event === 'deposit' && (e.payload as Deposit).id === d!.id),
    ).toBe(true);

    await chain.mine(CONFIRMATIONS - 2); // 11 blocks: one short
    await watcher.round();
    [d] = await deposits();
    expect(d).toMatchObject({ status: 'confirming', chain: { confirmations: CONFIRMATIONS - 1 } });
    expect(await balance()).toBe(before);

    await chain.mine(1);
    await watcher.round();
    [d] = await deposits();
    expect(d).toMatchObject({ status: 'approved', chain: { confirmations: CONFIRMATIONS } });
    expect(await balance()).toBe(before + 25_000);
    expect(await creditsOf(d!.id)).toBe(1);
    const messages = await api.http.get('/api/messages').set(alice.auth).expect(200);
    expect(messages.body.items[0]).toMatchObject({ kind: 'deposit_credited' });

    // More rounds and blocks change nothing.
    await watcher.round();
    await chain.mine(30);
    await watcher.round();
    expect(await balance()).toBe(before + 25_000);
    expect(await creditsOf(d!.id)).toBe(1);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });

  it('drops an unconfirmed transfer a reorganisation took out, and credits nothing', async () => {
    const before = await balance();
    const fork = await chain.snapshot();
    const paid = await chain.pay(aliceAddress, 40n * USDT);
    await chain.mine(3);
    await watcher.round();
    const seen = (await deposits()).find((d) => d.txId === paid.txHash)!;
    expect(seen).toMatchObject({ status: 'confirming', chain: { confirmations: 4 } });

    // The chain goes back to before the transfer and grows past it on another branch.
    await chain.revert(fork);
    await chain.mine(6);
    await watcher.round();
    expect((await deposits()).find((d) => d.id === seen.id)).toMatchObject({ status: 'dropped' });

    await chain.mine(CONFIRMATIONS + 5);
    await watcher.round();
    expect(await balance()).toBe(before);
    expect(await creditsOf(seen.id)).toBe(0);
    expect((await deposits()).filter((d) => d.txId === paid.txHash)).toHaveLength(1);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });

  it('holds a transfer above the auto-credit limit for an operator, who credits it once', async () => {
    const before = await balance();
    const paid = await chain.pay(aliceAddress, 2_000n * USDT);
    await chain.mine(CONFIRMATIONS);
    await watcher.round();
    const held = (await deposits()).find((d) => d.txId === paid.txHash)!;
    expect(held).toMatchObject({ status: 'pending', source: 'chain', amount: 200_000 });
    expect(await balance()).toBe(before);

    // The review queue shows the chain's facts.
    const queue = await api.http.get('/api/ops/deposits?status=pending').set(opsAuth).expect(200);
    expect((queue.body.items as Deposit[]).find((d) => d.id === held.id)).toMatchObject({
      chain: {
        fromAddress: chain.treasury.toLowerCase(),
        toAddress: aliceAddress,
        blockNumber: paid.block,
        explorerUrl: `https://etherscan.io/tx/${paid.txHash}`,
      },
    });
    await api.http.post(`/api/ops/deposits/${held.id}/approve`).set(opsAuth).expect(200);
    await api.http.post(`/api/ops/deposits/${held.id}/approve`).set(opsAuth).expect(409);
    await watcher.round();
    expect(await balance()).toBe(before + 200_000);
    expect(await creditsOf(held.id)).toBe(1);
  });

  it('holds a transfer from a sender the operators flagged', async () => {
    const sender = chain.accounts[0]!;
    await chain.pay(sender, 100n * USDT);
    const flag = { network: 'ERC20', address: sender, reason: 'funds from a mixer' };
    const flagged = await api.http.post('/api/ops/flagged-senders').set(opsAuth).send(flag);
    expect(flagged.status).toBe(201);
    expect(flagged.body).toMatchObject({ network: 'ERC20', address: sender.toLowerCase() });
    await api.http
      .post('/api/ops/flagged-senders')
      .set(opsAuth)
      .send({ ...flag, address: 'T' + 'x'.repeat(33) })
      .expect(400);
    const before = await balance();
    const paid = await chain.pay(aliceAddress, 30n * USDT, sender);
    await chain.mine(CONFIRMATIONS);
    await watcher.round();
    const held = (await deposits()).find((d) => d.txId === paid.txHash)!;
    expect(held).toMatchObject({ status: 'pending', amount: 3_000 });
    expect(held.chain?.fromAddress).toBe(sender.toLowerCase());
    expect(await balance()).toBe(before);
    // Unflagged, the sender's next transfer is credited by itself.
    const path = `/api/ops/flagged-senders/ERC20/${sender}`;
    await api.http.delete(path).set(opsAuth).expect(204);
    await api.http.delete(path).set(opsAuth).expect(404);
    await chain.pay(aliceAddress, 5n * USDT * 10n, sender);
    await chain.mine(CONFIRMATIONS);
    await watcher.round();
    expect(await balance()).toBe(before + 5_000);
  });

  it('credits each transfer of a batch transaction to its own user', async () => {
    const bob = await registerUser(api, 'bob');
    const bobChannels = await api.http.get('/api/deposits/channels').set(bob.auth).expect(200);
    const bobAddress = (bobChannels.body as { channel: string; address: string }[]).find(
      (c) => c.channel === 'usdt-erc20',
    )!.address;
    expect(bobAddress).not.toBe(aliceAddress);
    const before = await balance();
    const paid = await chain.payMany([aliceAddress, bobAddress], [15n * USDT, 35n * USDT]);
    await chain.mine(CONFIRMATIONS);
    await watcher.round();
    const mine = (await deposits()).filter((d) => d.txId === paid.txHash);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'approved', amount: 1_500 });
    const bobs = await api.http.get('/api/deposits').set(bob.auth).expect(200);
    expect(bobs.body.items).toHaveLength(1);
    expect(bobs.body.items[0]).toMatchObject({ status: 'approved', amount: 3_500 });
    expect(await balance()).toBe(before + 1_500);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });
});
