import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { startLocalChain, type LocalChain } from '@tests/support/chain';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { startEntry, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';
import { checkLedger } from '@server/modules/ledger/ledger';
import { evmSource } from '@server/modules/wallet/chain/evm-source';

const USDT = 1_000_000n;
const CONFIRMATIONS = 5;

/** Polls `check` until it holds (a generous limit: rounds run every 100 ms). */
async function until(what: string, check: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Issue 35, must-show 1 (restarts): two watcher processes against one PostgreSQL and a real local
 * Ethereum node; the active one is SIGKILLed at arbitrary moments (rounds run every 100 ms, so
 * kills land inside rounds too) and restarted while transfers arrive. Every transfer is credited
 * exactly once, and the ledger holds.
 */
describe('watcher processes killed and restarted mid-way', { timeout: 240_000 }, () => {
  let chain: LocalChain;
  let t: TestDb;
  let api: TestApi;
  let env: Record<string, string>;
  const watchers: RunningProcess[] = [];
  const users: { id: string; auth: Record<string, string>; address: string }[] = [];

  const startWatcher = async () =>
    startEntry('server/src/main/watcher.ts', { ...env, PORT: String(await freePort()) });

  beforeAll(async () => {
    chain = await startLocalChain();
    t = await openTestDb('postgres');
    api = await buildTestApi(t.db, {
      chain: { ERC20: evmSource({ rpcUrl: chain.url, contract: chain.token }) },
    });
    for (const name of ['ann', 'ben', 'cal']) {
      const u = await registerUser(api, name);
      const channels = await api.http.get('/api/deposits/channels').set(u.auth).expect(200);
      const address = (channels.body as { channel: string; address: string }[]).find(
        (c) => c.channel === 'usdt-erc20',
      )!.address;
      users.push({ id: String(u.user.id), auth: u.auth, address });
    }
    env = {
      DATABASE_URL: urlWithSchema(t.url!, t.schema!),
      ETH_RPC_URL: chain.url,
      ETH_USDT_CONTRACT: chain.token,
      ERC20_CONFIRMATIONS: String(CONFIRMATIONS),
      ETH_START_BLOCK: String((await chain.head()) + 1),
      CHAIN_POLL_MS: '100',
      LOG_LEVEL: 'warn',
    };
    watchers.push(await startWatcher(), await startWatcher());
  }, 120_000);

  afterAll(async () => {
    await Promise.all(watchers.map((w) => w.stop('SIGKILL')));
    await api?.close();
    await t?.drop();
    await chain?.stop();
  });

  const chainDeposits = async () =>
    (
      await t.db.query<{ id: string; status: string; user_id: string; amount: string }>(
        "SELECT id, status, user_id, amount FROM deposits WHERE source = 'chain'",
      )
    ).rows;

  it('credits every transfer exactly once', async () => {
    const paid: { user: number; quantity: number }[] = [];
    for (let wave = 0; wave < 4; wave++) {
      for (const [i, u] of users.entries()) {
        const quantity = 1000 + wave * 100 + i; // 10.00 and up, each different
        await chain.pay(u.address, BigInt(quantity) * (USDT / 100n));
        paid.push({ user: i, quantity });
      }
      await chain.mine(2);
      await until(`wave ${wave} seen`, async () => (await chainDeposits()).length === paid.length);
      // Kill one watcher (the active one every other wave) and start another in its place.
      const lease = await t.db.query<{ holder: string }>(
        "SELECT holder FROM watcher_lease WHERE id = 'ERC20'",
      );
      const activePid = Number(lease.rows[0]!.holder.split(':')[1]);
      const victim =
        wave % 2 === 0
          ? watchers.findIndex((w) => w.child.pid === activePid)
          : watchers.findIndex((w) => w.child.pid !== activePid);
      await watchers[Math.max(0, victim)]!.stop('SIGKILL');
      watchers.splice(Math.max(0, victim), 1, await startWatcher());
      await chain.mine(2);
    }
    await chain.mine(CONFIRMATIONS);
    await until('every transfer credited', async () =>
      (await chainDeposits()).every((d) => d.status === 'approved'),
    );

    const rows = await chainDeposits();
    expect(rows).toHaveLength(paid.length);
    const credits = await t.db.query<{ ref: string; n: string }>(
      "SELECT ref, count(*) AS n FROM transfers WHERE kind = 'deposit' GROUP BY ref",
    );
    expect(credits.rows).toHaveLength(paid.length);
    expect(credits.rows.every((r) => Number(r.n) === 1)).toBe(true);
    for (const [i, u] of users.entries()) {
      const summary = await api.http.get('/api/account/summary').set(u.auth).expect(200);
      const expected = paid.filter((p) => p.user === i).reduce((a, p) => a + p.quantity, 0);
      expect(summary.body.available).toBe(expected);
    }
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });
});
