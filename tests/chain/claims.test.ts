import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { startLocalChain, type LocalChain } from '@tests/support/chain';
import { openTestDb, type TestDb } from '@tests/support/db';
import { memoryChain } from '@tests/support/memory-chain';
import { opsAuth, postDeposit } from '@tests/support/wallet';
import { checkLedger } from '@server/modules/ledger/ledger';
import { evmSource } from '@server/modules/wallet/chain/evm-source';
import { createWatcher } from '@server/modules/wallet/chain/watcher';

const USDT = 1_000_000n;

/**
 * Issue 35, must-show 2: the manual path ("my transfer did not arrive") checked against a real
 * local Ethereum node. A claim must name a transfer that paid the claimant's own address; a
 * transaction is one whichever network's form names it; a rejected one is free again only for
 * the user who claimed it.
 */
describe('claims of on-chain transfers', { timeout: 120_000 }, () => {
  let chain: LocalChain;
  let t: TestDb;
  let api: TestApi;
  let alice: Awaited<ReturnType<typeof registerUser>>;
  let bob: Awaited<ReturnType<typeof registerUser>>;
  let aliceAddress = '';

  const claim = (who: { auth: Record<string, string> }, channel: string, txId: string) =>
    postDeposit(api, who.auth, { channel, txId }, null);

  beforeAll(async () => {
    chain = await startLocalChain();
    t = await openTestDb('pglite');
    api = await buildTestApi(t.db, {
      chain: {
        ERC20: evmSource({ rpcUrl: chain.url, contract: chain.token }),
        TRC20: memoryChain('TRC20'),
      },
    });
    alice = await registerUser(api, 'alice');
    bob = await registerUser(api, 'bob');
    const channels = await api.http.get('/api/deposits/channels').set(alice.auth).expect(200);
    aliceAddress = (channels.body as { channel: string; address: string }[]).find(
      (c) => c.channel === 'usdt-erc20',
    )!.address;
  }, 90_000);

  afterAll(async () => {
    await api?.close();
    await t?.drop();
    await chain?.stop();
  });

  it('refuses B’s claim of A’s transfer, keeps one deposit per transfer, and credits A once', async () => {
    const paid = await chain.pay(aliceAddress, 120n * USDT);
    const bare = paid.txHash.slice(2);

    // Bob names Alice's transfer: it paid Alice's address, not his.
    const stolen = await claim(bob, 'usdt-erc20', paid.txHash).expect(409);
    expect(stolen.body).toMatchObject({ error: { code: 'TX_NOT_TO_YOUR_ADDRESS', field: 'txId' } });

    // Alice's claim records the chain's facts and amount for the reviewer.
    const mine = await claim(alice, 'usdt-erc20', paid.txHash).expect(201);
    expect(mine.body).toMatchObject({
      status: 'pending',
      source: 'claim',
      amount: 12_000,
      chain: {
        toAddress: aliceAddress,
        fromAddress: chain.treasury.toLowerCase(),
        blockNumber: paid.block,
      },
    });

    // Named again (in capitals), it is the one transaction already claimed; Bob still learns
    // only that it did not pay him.
    const upper = `0x${bare.toUpperCase()}`;
    expect((await claim(alice, 'usdt-erc20', upper).expect(409)).body.error.code).toBe(
      'TX_ID_IN_USE',
    );
    expect((await claim(bob, 'usdt-erc20', upper).expect(409)).body.error.code).toBe(
      'TX_NOT_TO_YOUR_ADDRESS',
    );
    // In TRON's form (no 0x) it is not a TRON transaction: nothing is written for it…
    expect((await claim(alice, 'usdt-trc20', bare).expect(422)).body.error.code).toBe(
      'TX_NOT_FOUND',
    );
    // …and storage holds one live deposit per transfer whichever form names it.
    await expect(
      t.db.query(
        `INSERT INTO deposits (user_id, channel, amount, quantity, rate, tx_id, tx_hash, log_index)
         VALUES ($1, 'usdt-trc20', 12000, 12000, '1', $2, $2, $3)`,
        [bob.user.id, bare, mine.body.chain.logIndex],
      ),
    ).rejects.toThrow(/deposits_transfer_live/);

    // Rejected: free again for Alice only.
    await api.http
      .post(`/api/ops/deposits/${mine.body.id}/reject`)
      .set(opsAuth)
      .send({ reason: 'check the amount' })
      .expect(200);
    expect((await claim(bob, 'usdt-erc20', paid.txHash).expect(409)).body.error.code).toBe(
      'TX_NOT_TO_YOUR_ADDRESS',
    );
    const retry = await claim(alice, 'usdt-erc20', paid.txHash).expect(201);

    // The watcher sees the same transfer while the claim waits: it credits nothing itself.
    const watcher = createWatcher({
      db: t.db,
      source: evmSource({ rpcUrl: chain.url, contract: chain.token }),
      confirmations: 3,
      startBlock: paid.block,
      range: 100,
      autoCreditMax: 10_000_000,
      usdtRate: '1',
      userEvents: api.userEvents,
      summaries: { publish: () => Promise.resolve() },
    });
    await chain.mine(5);
    const round = await watcher.round();
    expect(round).toMatchObject({ seen: 0, credited: 0 });
    await api.http.post(`/api/ops/deposits/${retry.body.id}/approve`).set(opsAuth).expect(200);
    const summary = await api.http.get('/api/account/summary').set(alice.auth).expect(200);
    expect(summary.body.available).toBe(12_000);
    const credits = await t.db.query(
      "SELECT 1 FROM transfers WHERE kind = 'deposit' AND ref LIKE 'deposit:%'",
    );
    expect(credits.rows).toHaveLength(1);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });

  it('answers an unknown transaction and an unreachable node with their codes', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    expect((await claim(bob, 'usdt-erc20', unknown).expect(422)).body.error.code).toBe(
      'TX_NOT_FOUND',
    );
    const down = await buildTestApi(t.db, {
      chain: { ERC20: evmSource({ rpcUrl: 'http://127.0.0.1:9', contract: chain.token }) },
    });
    try {
      const res = await postDeposit(down, bob.auth, { channel: 'usdt-erc20', txId: unknown }, null);
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('CHAIN_UNAVAILABLE');
      expect(res.headers['retry-after']).toBeDefined();
    } finally {
      await down.close();
    }
  });
});
