/**
 * `npm run bench:watcher`: the chain watcher on a local Hardhat chain with the test ERC-20.
 * 1. Credit latency: for each of --transfers transfers, the time from the block that gives it its
 *    last confirmation being mined to its `balance` event, with the watcher polling every
 *    --poll ms (the production default is 3 000: half of it is the expected wait).
 * 2. Catch-up: how many blocks a second one watcher follows when it starts --blocks blocks behind,
 *    with a transfer of 10 USDT to one of --users users every --every blocks, at range 500 (ETH_LOG_RANGE's
 *    default) and at range 50 (the baseline), beside Ethereum's own pace (one block each 12 s).
 * PostgreSQL when DATABASE_URL is set (a fresh schema), else PGlite. Prints figures, with the
 * machine's load; asserts nothing.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { buildTestApi, registerUser } from '@tests/support/api';
import { startLocalChain } from '@tests/support/chain';
import { openTestDb } from '@tests/support/db';
import { evmSource } from '@server/modules/wallet/chain/evm-source';
import { createWatcher } from '@server/modules/wallet/chain/watcher';
import { loopWatcher } from '@server/modules/wallet/chain/watcher.loop';
import type { UserEvents } from '@server/platform/user-events';

const usage = `usage: npm run bench:watcher -- [--transfers 20] [--poll 1000] [--blocks 3000] [--every 5] [--users 200]`;

function options() {
  const { values } = parseArgs({
    strict: true,
    options: {
      transfers: { type: 'string', default: '20' },
      poll: { type: 'string', default: '1000' },
      blocks: { type: 'string', default: '3000' },
      every: { type: 'string', default: '5' },
      users: { type: 'string', default: '200' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const num = (name: 'transfers' | 'poll' | 'blocks' | 'every' | 'users', min: number) => {
    const n = Number(values[name]);
    if (!(Number.isInteger(n) && n >= min)) {
      console.error(`--${name} must be a whole number of at least ${min}\n${usage}`);
      process.exit(2);
    }
    return n;
  };
  return {
    transfers: num('transfers', 1),
    poll: num('poll', 50),
    blocks: num('blocks', 10),
    every: num('every', 1),
    users: num('users', 1),
  };
}

const CONFIRMATIONS = 12;
const USDT = 1_000_000n;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main() {
  const o = options();
  console.log(`bench:watcher ${JSON.stringify(o)}; load ${load()} on ${os.cpus().length} cores`);
  const chain = await startLocalChain();
  const t = await openTestDb(process.env.DATABASE_URL ? 'postgres' : 'pglite');
  const source = evmSource({ rpcUrl: chain.url, contract: chain.token });
  const api = await buildTestApi(t.db, { chain: { ERC20: source } });
  try {
    const addresses: { id: number; address: string }[] = [];
    for (let i = 0; i < o.users; i++) {
      const u = await registerUser(api, `w${i}`);
      const channels = await api.http.get('/api/deposits/channels').set(u.auth).expect(200);
      const address = (channels.body as { channel: string; address: string }[]).find(
        (c) => c.channel === 'usdt-erc20',
      )!.address;
      addresses.push({ id: Number(u.user.id), address });
    }
    console.log(
      `${o.users} users with their addresses; ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
    );

    // 1. Credit latency.
    const balanceAt = new Map<string, number>();
    const events: UserEvents = {
      emit: ((userId: number | string, event: string) => {
        if (event === 'balance') balanceAt.set(String(userId), performance.now());
      }) as UserEvents['emit'],
      endSessions: () => undefined,
    };
    const settings = {
      db: t.db,
      source,
      confirmations: CONFIRMATIONS,
      autoCreditMax: Number.MAX_SAFE_INTEGER,
      usdtRate: '1',
      userEvents: events,
    };
    const latencyWatcher = createWatcher({
      ...settings,
      startBlock: (await chain.head()) + 1,
      range: 500,
      // The api's summaries send the `balance` event; here the watcher's own call stands for it.
      summaries: {
        publish: (userId) => {
          events.emit(userId, 'balance', {} as never);
          return Promise.resolve();
        },
      },
    });
    const loop = loopWatcher(latencyWatcher, { pollMs: o.poll });
    const lat: number[] = [];
    for (let i = 0; i < o.transfers; i++) {
      const user = addresses[i % addresses.length]!;
      balanceAt.delete(String(user.id));
      await chain.pay(user.address, 10n * USDT);
      await chain.mine(CONFIRMATIONS - 2);
      // A random moment within the poll, so the confirming block does not follow a round in step.
      await new Promise((r) => setTimeout(r, Math.random() * o.poll));
      const minedAt = performance.now();
      await chain.mine(1); // the confirming block
      const deadline = minedAt + 60_000;
      while (!balanceAt.has(String(user.id)) && performance.now() < deadline)
        await new Promise((r) => setTimeout(r, 5));
      lat.push(balanceAt.get(String(user.id))! - minedAt);
    }
    await loop.stop();
    lat.sort((a, b) => a - b);
    console.log(
      `credit latency (confirming block mined → balance event), poll ${o.poll} ms, ${lat.length} transfers: ` +
        `p50 ${quantile(lat, 0.5).toFixed(0)} ms, p90 ${quantile(lat, 0.9).toFixed(0)} ms, ` +
        `max ${lat[lat.length - 1]!.toFixed(0)} ms (expected about poll/2 + one round); load ${load()}`,
    );

    // 2. Catch-up: for each range a fresh stretch of chain of the same shape, so each pass
    // records and credits its own transfers.
    const rates: Record<number, number> = {};
    for (const range of [50, 500]) {
      const start = (await chain.head()) + 1;
      let paid = 0;
      for (let b = 0; b < o.blocks; b++) {
        if (b % o.every === 0) {
          await chain.pay(addresses[paid % addresses.length]!.address, 10n * USDT);
          paid += 1;
        } else await chain.mine(1);
      }
      const head = await chain.head();
      await t.db.query("DELETE FROM chain_cursors WHERE network = 'ERC20'");
      const w = createWatcher({
        ...settings,
        startBlock: start,
        range,
        summaries: { publish: () => Promise.resolve() },
      });
      const began = performance.now();
      let rounds = 0;
      let credited = 0;
      for (;;) {
        const r = await w.round();
        rounds += 1;
        credited += r.credited;
        if (!r.read || r.read.to >= r.head) break;
      }
      const seconds = (performance.now() - began) / 1000;
      rates[range] = (head - start + 1) / seconds;
      console.log(
        `catch-up, range ${String(range).padStart(3)}: ${head - start + 1} blocks behind, ` +
          `${paid} transfers (${credited} credited): ${rates[range].toFixed(0)} blocks/s, ` +
          `${(credited / seconds).toFixed(0)} credits/s (${rounds} rounds, ${seconds.toFixed(2)} s); load ${load()}`,
      );
    }
    console.log(
      `ratios: range 500 / range 50 = ${(rates[500]! / rates[50]!).toFixed(2)}; ` +
        `range 500 / Ethereum's pace (1 block / 12 s) = ${(rates[500]! * 12).toFixed(0)}×`,
    );
  } finally {
    await api.close();
    await t.drop();
    await chain.stop();
  }
}

await main();
