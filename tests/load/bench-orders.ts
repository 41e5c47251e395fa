/**
 * `npm run bench:orders`: order placements per second over HTTP, the entry lag (the entry tick's
 * time → the entry written on the order, by the settlement workers, while orders pour in), and the
 * settlement lag (expiry → settled) of 1 000 orders expiring in the same second, with the live
 * simulator writing the tape. PostgreSQL when DATABASE_URL is set (a fresh schema), else PGlite.
 * Prints figures; asserts nothing. Flags: --seconds N (placement phase), --concurrency N,
 * --orders N, --workers N, --port N (`--help` lists them).
 */
import http from 'node:http';
import os from 'node:os';
import { createHash, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { build } from 'hdr-histogram-js';
import { startSettlementWorker } from '@server/modules/orders/settlement.worker';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { defaultCatalogue } from '@sim/catalogue';
import { startFeed } from '@sim/feed';
import { buildTestApi } from '@tests/support/api';
import { bulkOrders, bulkUsers, expireAllAt, settlementFacts } from '@tests/support/bulk-orders';
import { openTestDb } from '@tests/support/db';

const usage = `usage: npm run bench:orders -- [--seconds 10] [--concurrency 32] [--orders 1000]
  [--workers 4] [--port 0]
  --port: the api's HTTP port (0: any free one). PostgreSQL when DATABASE_URL is set, else PGlite.`;

function options() {
  const { values } = parseArgs({
    strict: true,
    options: {
      seconds: { type: 'string', default: '10' },
      concurrency: { type: 'string', default: '32' },
      orders: { type: 'string', default: '1000' },
      workers: { type: 'string', default: '4' },
      port: { type: 'string', default: '0' },
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
    port: num('port', 0, 65_535),
  };
}
let parsed: ReturnType<typeof options>;
try {
  parsed = options();
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}
const { seconds, concurrency, orderCount, workerCount, port } = parsed;

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
const api = await buildTestApi(t.db, { bus });
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
const workers = Array.from({ length: workerCount }, () =>
  startSettlementWorker({
    db: t.db,
    orders: api.orders,
    userEvents: api.userEvents,
    balancesChanged: () => undefined,
    maxFeedDelayMs: 3000,
    onEntry: (lagMs, outcome) => {
      entryOutcomes.set(outcome, (entryOutcomes.get(outcome) ?? 0) + 1);
      if (outcome === 'entered') entryLag.recordValue(Math.max(1, Math.round(lagMs)));
    },
  }),
);

// Phase 1: placements per second.
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const place = (token: string, productId: string) =>
  new Promise<number>((resolve, reject) => {
    const body = JSON.stringify({
      productId,
      direction: Math.random() < 0.5 ? 'up' : 'down',
      amount: 1000,
      duration: 300,
    });
    const req = http.request(
      `${base}/api/orders`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
const latency = build({
  lowestDiscernibleValue: 1,
  highestTrackableValue: 60_000_000,
  numberOfSignificantValueDigits: 3,
});
const statuses = new Map<number, number>();
const crypto = defaultCatalogue.filter((p) => p.calendar === 'crypto').map((p) => p.id);
const until = Date.now() + seconds * 1000;
let n = 0;
const cpu0 = process.cpuUsage();
const progress = setInterval(() => process.stdout.write(`\rplacing… ${n} answered`), 1000);
await Promise.all(
  Array.from({ length: concurrency }, async (_, lane) => {
    while (Date.now() < until) {
      const started = performance.now();
      const status = await place(tokens[(lane + n) % tokens.length]!, crypto[n % crypto.length]!);
      latency.recordValue(Math.round((performance.now() - started) * 1000));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      n++;
    }
  }),
);
clearInterval(progress);
const cpu = process.cpuUsage(cpu0);
const placed = statuses.get(201) ?? 0;
console.log(
  `\nplacements: ${placed} accepted in ${seconds} s = ${(placed / seconds).toFixed(0)}/s with ${concurrency} concurrent clients; answers ${JSON.stringify(Object.fromEntries(statuses))}`,
);
console.log(
  `placement latency ms: p50 ${(latency.getValueAtPercentile(50) / 1000).toFixed(1)}, p99 ${(latency.getValueAtPercentile(99) / 1000).toFixed(1)}, max ${(latency.maxValue / 1000).toFixed(1)}; process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`,
);

// Let the last placements' entry ticks arrive (ticks come every ~0.5 s per product).
await new Promise((r) => setTimeout(r, 1500));
console.log(
  `entries: ${JSON.stringify(Object.fromEntries(entryOutcomes))}; entry lag (entry tick → written) ms: p50 ${entryLag.getValueAtPercentile(50)}, p99 ${entryLag.getValueAtPercentile(99)}, max ${entryLag.maxValue}`,
);

// Phase 2: 1 000 orders expiring in the same second, settled by N workers against the live tape.
// Park phase 1's orders (300 s each) so phase 2 measures its own 1 000 alone.
await t.db.query(
  "UPDATE orders SET status = 'void', settled_at = now(), payout = amount, void_reason = 'BENCH_PARKED' WHERE status = 'open'",
);
await t.db.query("UPDATE ledger_accounts SET balance = 0 WHERE kind = 'in_orders'");
const phase2From = (
  await t.db.query<{ id: number }>('SELECT coalesce(max(id), 0)::bigint AS id FROM orders')
).rows[0]!.id;
await bulkOrders(t.db, users, orderCount);
await expireAllAt(t.db, 3);
const deadline = Date.now() + 30_000;
let facts = await settlementFacts(t.db);
while (facts.open > 0 && Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 200));
  facts = await settlementFacts(t.db);
  process.stdout.write(`\rsettling… ${orderCount - facts.open} / ${orderCount}`);
}
const { rows } = await t.db.query<{ p50: number; p99: number; max: number; within: number }>(
  `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY lag)::int AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY lag)::int AS p99,
          max(lag)::int AS max, count(*) FILTER (WHERE lag <= 1000)::int AS within
   FROM (SELECT extract(epoch FROM settled_at - expires_at) * 1000 AS lag FROM orders
         WHERE status <> 'open' AND id > $1) x`,
  [phase2From],
);
const r = rows[0]!;
console.log(
  `\nsettlement lag for ${orderCount} orders expiring in one second, ${workerCount} workers, live tape at 2 ticks/s: p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms; ${r.within}/${orderCount} within 1 s; still open: ${facts.open}`,
);

await Promise.all(workers.map((w) => w.stop()));
await feed.stop();
server.close();
agent.destroy();
await api.close();
await t.drop();
process.exit(0);
