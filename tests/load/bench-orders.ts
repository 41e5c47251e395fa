/**
 * `npm run bench:orders`: order placements per second over HTTP, the entry lag (the entry tick's
 * time → the entry written on the order, by the settlement workers, while orders pour in), and the
 * settlement lag (expiry → settled) of 1 000 orders expiring in the same second, with the live
 * simulator writing the tape. PostgreSQL when DATABASE_URL is set (a fresh schema), else PGlite.
 * Prints figures; asserts nothing. Flags: --seconds N (placement phase), --concurrency N, --keys,
 * --orders N, --workers N, --port N (`--help` lists them).
 */
import { fork } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { build, decodeFromCompressedBase64 } from 'hdr-histogram-js';
import type { PlaceJob, PlaceResult } from './bench/place-client';
import { startSettlementWorker } from '@server/modules/orders/settlement.worker';
import { busWakes } from '@server/modules/orders/settlement-wake';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { defaultCatalogue } from '@sim/catalogue';
import { startFeed } from '@sim/feed';
import { buildTestApi } from '@tests/support/api';
import { bulkOrders, bulkUsers, expireAllAt, settlementFacts } from '@tests/support/bulk-orders';
import { openTestDb } from '@tests/support/db';

const usage = `usage: npm run bench:orders -- [--seconds 10] [--concurrency 32] [--keys] [--spread] [--orders 1000]
  [--workers 4] [--batch 1000] [--port 0] [--profile file.cpuprofile]
  --keys: each placement carries a fresh Idempotency-Key, as the app's own placements do.
  --spread: the settled orders' expiries spread over their second (as placement's are), not at
  one instant (as orders aligned to the clock are).
  --batch: orders a settlement worker claims per transaction (SETTLE_BATCH_SIZE).
  --port: the api's HTTP port (0: any free one).
  --profile: write a CPU profile of the server over the placement phase (summarise it with
  npx tsx tests/load/bench/profile-summary.ts <file>). PostgreSQL when DATABASE_URL is set, else PGlite.`;

function options() {
  const { values } = parseArgs({
    strict: true,
    options: {
      seconds: { type: 'string', default: '10' },
      concurrency: { type: 'string', default: '32' },
      orders: { type: 'string', default: '1000' },
      workers: { type: 'string', default: '4' },
      batch: { type: 'string', default: '1000' },
      port: { type: 'string', default: '0' },
      profile: { type: 'string' },
      keys: { type: 'boolean', default: false },
      spread: { type: 'boolean', default: false },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const num = (name: keyof typeof values, min: number, max: number) => {
    const n = Number(values[name]);
    if (!(Number.isInteger(n) && n >= min && n <= max)) {
      console.error(`--${name} must be a whole number from ${min} to ${max}\n${usage}`);
      process.exit(2);
    }
    return n;
  };
  return {
    seconds: num('seconds', 1, 3600),
    concurrency: num('concurrency', 1, 1000),
    orderCount: num('orders', 1, 100_000),
    workerCount: num('workers', 1, 64),
    batchSize: num('batch', 1, 5000),
    port: num('port', 0, 65_535),
    profileFile: values.profile,
    keys: values.keys ?? false,
    spread: values.spread ?? false,
  };
}
let parsed: ReturnType<typeof options>;
try {
  parsed = options();
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}
const {
  seconds,
  concurrency,
  orderCount,
  workerCount,
  batchSize,
  port,
  profileFile,
  keys,
  spread,
} = parsed;
/** The machine's load (1-minute average), printed beside every figure: the cores are shared. */
const load = () => ` [load ${os.loadavg()[0]!.toFixed(2)}]`;

/**
 * CPU time of every PostgreSQL process on this machine (user + system, ms), from /proc: the
 * benchmark's fresh schema is the only busy one, so the difference over the placement phase is
 * what the placements cost the database. Zero for PGlite (it runs inside this process).
 */
function databaseCpuMs(db: 'postgres' | 'pglite'): number {
  if (db !== 'postgres') return 0;
  const ticksPerMs = 100 / 1000; // USER_HZ is 100 on Linux
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
      const fields = stat.slice(close + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / ticksPerMs;
    } catch {
      // the process ended between the listing and the read
    }
  }
  return total;
}

/** A CPU profile of this process over the placement phase only (node:inspector). */
async function startProfile(): Promise<Session> {
  const s = new Session();
  s.connect();
  await s.post('Profiler.enable');
  await s.post('Profiler.setSamplingInterval', { interval: 200 });
  await s.post('Profiler.start');
  return s;
}
async function stopProfile(s: Session, file: string): Promise<void> {
  const { profile } = await s.post('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  s.disconnect();
}

const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
console.log(
  `database: ${kind}; cores: ${os.availableParallelism()} (shared by server, simulator, workers and load generator)`,
);
const t = await openTestDb(kind);
const bus = createMemoryBus(createMemoryHub());
const feed = await startFeed({
  db: t.db,
  bus,
  catalogue: defaultCatalogue,
  seed: 1,
  randomness: { kind: 'seeded' },
  ticksPerSecond: 2,
  backfillHours: 0,
  retentionHours: 48,
  flushMs: 100,
});
// The per-user order throttle off (ORDER_RATE=off): 200 users placing as fast as they can is
// the load measured here, not a thing a person does.
const api = await buildTestApi(t.db, { bus, env: { ORDER_RATE: 'off' } });
const server = http.createServer(api.app);
await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

// Users with sessions made directly (argon2 logins would dominate the setup time).
const users = await bulkUsers(t.db, 200, 100_000_000);
const tokens = await Promise.all(
  users.map(async (id) => {
    const token = randomBytes(32).toString('base64url');
    await t.db.query(
      "INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')",
      [createHash('sha256').update(token).digest('hex'), id],
    );
    return token;
  }),
);
await new Promise((r) => setTimeout(r, 1500)); // fresh quotes for every product

// The workers run throughout: they enter phase 1's orders as they arrive, then settle phase 2's.
const entryLag = build({
  lowestDiscernibleValue: 1,
  highestTrackableValue: 60_000,
  numberOfSignificantValueDigits: 3,
});
const entryOutcomes = new Map<string, number>();
// Expiry → settled, committed and announced (the worker's own measure), phase 2 only.
const settleLag = build({
  lowestDiscernibleValue: 1,
  highestTrackableValue: 600_000,
  numberOfSignificantValueDigits: 3,
});
let settledWithin1s = 0;
const workers = Array.from({ length: workerCount }, () =>
  startSettlementWorker({
    db: t.db,
    orders: api.orders,
    userEvents: api.userEvents,
    balancesChanged: () => undefined,
    maxFeedDelayMs: 3000,
    batchSize,
    // Woken as in the app: by placements and tape writes on the bus the api and feed share.
    wakes: busWakes(bus),
    onSettled: (lagMs) => {
      settleLag.recordValue(Math.max(1, Math.round(lagMs)));
      if (lagMs <= 1000) settledWithin1s++;
    },
    onEntry: (lagMs, outcome) => {
      entryOutcomes.set(outcome, (entryOutcomes.get(outcome) ?? 0) + 1);
      if (outcome === 'entered') entryLag.recordValue(Math.max(1, Math.round(lagMs)));
    },
  }),
);

// Phase 1: placements per second, from a load generator in its own process (so the CPU figure
// below is the server's: HTTP, sessions, placement, the settlement workers entering the orders).
const crypto = defaultCatalogue.filter((p) => p.calendar === 'crypto').map((p) => p.id);
/** Places orders from a fresh load generator process for `secs` seconds. */
const placeFor = (secs: number) => {
  const loader = fork(path.join(import.meta.dirname, 'bench/place-client.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const job: PlaceJob = { base, tokens, productIds: crypto, concurrency, seconds: secs, keys };
  loader.send(job);
  return new Promise<PlaceResult>((resolve, reject) => {
    loader.once('message', (m) => resolve(m as PlaceResult));
    loader.once('exit', (code) => reject(new Error(`the load generator exited (${code})`)));
  });
};
// A warm-up, then the statistics a running database keeps (autovacuum's ANALYZE): plans made
// against the near-empty tables of a fresh schema would scan where a live one uses its indexes.
process.stdout.write('warming up for 3 s…');
await placeFor(3);
await t.db.query('ANALYZE');
// The same process at rest (simulator, tape writer, workers polling): its CPU per second is part
// of the placements' figure below, shown apart.
const rest0 = process.cpuUsage();
await new Promise((r) => setTimeout(r, 2000));
const rest = process.cpuUsage(rest0);
const restMsPerS = (rest.user + rest.system) / 1000 / 2;
const session = profileFile ? await startProfile() : null;
const cpu0 = process.cpuUsage();
const db0 = databaseCpuMs(kind);
process.stdout.write(`\nplacing for ${seconds} s…`);
const result = await placeFor(seconds);
const cpu = process.cpuUsage(cpu0);
const dbMs = databaseCpuMs(kind) - db0;
if (session && profileFile) await stopProfile(session, profileFile);
const latency = decodeFromCompressedBase64(result.latency);
const placed = result.statuses['201'] ?? 0;
const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(
  `\nplacements: ${placed} accepted in ${seconds} s = ${(placed / seconds).toFixed(0)}/s with ${concurrency} concurrent clients${keys ? ', each with an Idempotency-Key' : ''}; answers ${JSON.stringify(result.statuses)}${load()}`,
);
console.log(
  `placement latency ms: p50 ${(latency.getValueAtPercentile(50) / 1000).toFixed(1)}, p99 ${(latency.getValueAtPercentile(99) / 1000).toFixed(1)}, max ${(latency.maxValue / 1000).toFixed(1)}${load()}`,
);
console.log(
  `server CPU: ${(cpuMs / 1000).toFixed(1)} s (user ${(cpu.user / 1e6).toFixed(1)}, system ${(cpu.system / 1e6).toFixed(1)}) = ${(cpuMs / Math.max(1, placed)).toFixed(3)} ms per placement; at rest ${restMsPerS.toFixed(0)} ms/s` +
    (kind === 'postgres'
      ? `; PostgreSQL server CPU: ${(dbMs / 1000).toFixed(1)} s = ${(dbMs / Math.max(1, placed)).toFixed(3)} ms per placement`
      : ' (PGlite runs inside it)') +
    (profileFile ? `; profile: ${profileFile}` : '') +
    load(),
);

// Let the last placements' entry ticks arrive (ticks come every ~0.5 s per product).
await new Promise((r) => setTimeout(r, 1500));
console.log(
  `entries: ${JSON.stringify(Object.fromEntries(entryOutcomes))}; entry lag (entry tick → written) ms: p50 ${entryLag.getValueAtPercentile(50)}, p99 ${entryLag.getValueAtPercentile(99)}, max ${entryLag.maxValue}${load()}`,
);

// Phase 2: 1 000 orders expiring in the same second, settled by N workers against the live tape.
// Park phase 1's orders (300 s each) so phase 2 measures its own 1 000 alone.
await t.db.query(
  "UPDATE orders SET status = 'void', settled_at = now(), payout = amount, void_reason = 'BENCH_PARKED' WHERE status = 'open'",
);
await t.db.query("UPDATE ledger_accounts SET balance = 0 WHERE kind = 'in_orders'");
settleLag.reset();
settledWithin1s = 0;
await bulkOrders(t.db, users, orderCount);
await expireAllAt(t.db, 3);
// Placement announces its orders on the bus; these went straight into the table, so say it here.
await bus.publish({ type: 'orders', placed: Date.now() });
if (spread)
  await t.db.query(
    `UPDATE orders SET expires_ms = expires_ms + id % 1000, expires_at = expires_at + (id % 1000) * interval '1 millisecond'
     WHERE status = 'open'`,
  );
// CPU from here to the last settlement: the workers' share (and the simulator's, at rest above).
const settleSession = profileFile ? await startProfile() : null;
const settleCpu0 = process.cpuUsage();
const settleDb0 = databaseCpuMs(kind);
const deadline = Date.now() + 30_000;
// Progress from one cheap count (the open orders' partial index): the exactly-once checks of
// settlementFacts read whole tables and would take the workers' CPU while they are measured.
const openOrders = async () =>
  (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM orders WHERE status = 'open'"))
    .rows[0]!.n;
let open = await openOrders();
while (open > 0 && Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 200));
  open = await openOrders();
  process.stdout.write(`\rsettling… ${orderCount - open} / ${orderCount}`);
}
const settleCpu = process.cpuUsage(settleCpu0);
const settleDbMs = databaseCpuMs(kind) - settleDb0;
if (settleSession && profileFile)
  await stopProfile(settleSession, profileFile.replace(/(\.cpuprofile)?$/, '.settle.cpuprofile'));
const facts = await settlementFacts(t.db);
console.log(
  `\nsettlement lag (expiry → committed and announced) for ${orderCount} orders expiring in one second (${spread ? 'spread over it' : 'all at its start'}), ${workerCount} workers (batches of ${batchSize}), live tape at 2 ticks/s: p50 ${settleLag.getValueAtPercentile(50)} ms, p99 ${settleLag.getValueAtPercentile(99)} ms, max ${settleLag.maxValue} ms; ${settledWithin1s}/${orderCount} within 1 s; still open: ${facts.open}${load()}`,
);
const settleCpuMs = (settleCpu.user + settleCpu.system) / 1000;
console.log(
  `settlement CPU from 3 s before expiry to the last one settled: server ${(settleCpuMs / 1000).toFixed(2)} s = ${(settleCpuMs / orderCount).toFixed(3)} ms per order` +
    (kind === 'postgres'
      ? `; PostgreSQL ${(settleDbMs / 1000).toFixed(2)} s = ${(settleDbMs / orderCount).toFixed(3)} ms per order`
      : ' (PGlite runs inside it)') +
    `; the lag's minimum ${settleLag.minNonZeroValue} ms (the wait for the tape to be final)${load()}`,
);

await Promise.all(workers.map((w) => w.stop()));
await feed.stop();
server.close();
await api.close();
await t.drop();
process.exit(0);
