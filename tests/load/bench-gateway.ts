import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Audience } from './bench/audience';
import { Child } from './bench/child';
import { formatResults, serverLabels, type PhaseResult, type ServerId } from './bench/result';
import { BENCH_PRODUCT } from './bench/stream';
import { oneAddressSocketEnv } from '../support/socket-limits';

/**
 * `npm run bench:gateway -- [--subscribers 1000] [--duration 10] [--warmup 2] [--tick-rate 10]
 *   [--ramp 1000] [--only a,b,c] [--redis redis://127.0.0.1:6379] [--profile]`
 *
 * One run, the same load against three servers, each a child process of its own (so CPU and heap
 * are that process's): (a) plain Socket.IO as documented (defaults, Redis adapter, ticks through
 * the Redis emitter), (b) a floor (raw `ws`, one pre-built frame per tick written to every
 * subscriber), (c) our gateway (server/src/main/gateway.ts on the Redis bus). One publisher process
 * drives the same stream for each: BTCUSDT at --tick-rate plus the market snapshot once a second,
 * to --subscribers light clients all subscribed to `market` and `ticks:BTCUSDT`.
 * Per server: CPU µs per delivery, tick latency p50/p99, heap per idle connection; then the ratios.
 * Bounded (every wait has a limit, a watchdog ends the run), loopback only.
 */

const usage = `usage: npm run bench:gateway -- [--subscribers 1000] [--duration 10] [--warmup 2]
  [--tick-rate 10] [--ramp 1000] [--only a,b,c] [--redis redis://127.0.0.1:6379] [--profile]
  [--gateway-script <entry for (c), e.g. an older gateway wrapped like bench/servers/gateway.ts>]
  [--port <first port: the servers take it and the next two; default free ones>]
  [--namespace <Redis key prefix; default bench<pid><time>>]`;

export interface BenchOptions {
  subscribers: number;
  durationSec: number;
  warmupSec: number;
  ticksPerSec: number;
  rampPerSec: number;
  only: ServerId[];
  redisUrl: string;
  profileDir: string | null;
  /** Another entry for (c), e.g. an older gateway for a before/after comparison. */
  gatewayScript: string | null;
  /** First of the servers' ports ((a) this one, (b) the next, (c) the one after); null: free ones. */
  port: number | null;
  /** Prefix of the Redis keys and channels; null: one made from the pid and the time. */
  namespace: string | null;
}

export function parseBenchArgs(argv: string[]): BenchOptions {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    options: {
      subscribers: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      'tick-rate': { type: 'string' },
      ramp: { type: 'string' },
      only: { type: 'string' },
      redis: { type: 'string' },
      profile: { type: 'boolean' },
      'gateway-script': { type: 'string' },
      port: { type: 'string' },
      namespace: { type: 'string' },
    },
  });
  const num = (
    name: string,
    raw: string | undefined,
    fallback: number,
    min: number,
    max: number,
  ) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!(Number.isFinite(n) && n >= min && n <= max))
      throw new Error(`--${name} must be a number from ${min} to ${max}\n${usage}`);
    return n;
  };
  const only = (v.only ?? 'a,b,c').split(',').map((s) => s.trim());
  if (!only.length || !only.every((s): s is ServerId => s === 'a' || s === 'b' || s === 'c'))
    throw new Error(`--only takes a comma list of a, b, c\n${usage}`);
  const redisUrl = v.redis ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const host = new URL(redisUrl).hostname;
  if (!/^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(host))
    throw new Error(`the benchmark is loopback only; ${host} is not a loopback Redis`);
  return {
    subscribers: Math.round(num('subscribers', v.subscribers, 1000, 1, 16_000)),
    durationSec: num('duration', v.duration, 10, 1, 60),
    warmupSec: num('warmup', v.warmup, 2, 0, 30),
    ticksPerSec: num('tick-rate', v['tick-rate'], 10, 0.1, 1000),
    rampPerSec: num('ramp', v.ramp, 1000, 1, 20_000),
    only,
    redisUrl,
    gatewayScript: v['gateway-script'] ?? null,
    port: v.port === undefined ? null : Math.round(num('port', v.port, 0, 1, 65_533)),
    namespace: (() => {
      if (v.namespace === undefined) return null;
      if (!/^[A-Za-z0-9_-]{1,40}$/.test(v.namespace))
        throw new Error(`--namespace takes 1-40 letters, digits, - or _\n${usage}`);
      return v.namespace;
    })(),
    profileDir: v.profile
      ? path.join(os.tmpdir(), `bench-gateway-${new Date().toISOString().replace(/[:.]/g, '-')}`)
      : null,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load1 = () => os.loadavg()[0]!;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const scripts: Record<ServerId, string> = {
  a: 'tests/load/bench/servers/plain-socketio.ts',
  b: 'tests/load/bench/servers/floor-ws.ts',
  c: 'tests/load/bench/servers/gateway.ts',
};

function serverEnv(
  id: ServerId,
  port: number,
  redisUrl: string,
  key: string,
): Record<string, string> {
  if (id === 'c')
    return {
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL: redisUrl,
      REDIS_NAMESPACE: key,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...oneAddressSocketEnv, // every subscriber comes from 127.0.0.1
    };
  return { BENCH_PORT: String(port), BENCH_REDIS_URL: redisUrl, BENCH_KEY: key };
}

async function runPhase(
  id: ServerId,
  o: BenchOptions,
  publisher: Child,
  namespace: string,
  log: (line: string) => void,
  track: (c: Child | null) => void,
): Promise<PhaseResult> {
  const label = serverLabels[id];
  const port = o.port === null ? await freePort() : o.port + ['a', 'b', 'c'].indexOf(id);
  const key = `${namespace}-${id}`;
  const script = id === 'c' && o.gatewayScript ? o.gatewayScript : scripts[id];
  const server = new Child(label, script, serverEnv(id, port, o.redisUrl, key));
  track(server);
  const audience = new Audience(`http://127.0.0.1:${port}`, ['market', `ticks:${BENCH_PRODUCT}`]);
  const loadBefore = load1();
  try {
    await server.ready(60_000);
    await sleep(300);
    const idle0 = await server.sample(true);

    const t0 = performance.now();
    const line = (stage: string, extra = '') =>
      log(
        `[${label}] t=${((performance.now() - t0) / 1000).toFixed(1)}s ${stage} ` +
          `subscribed ${audience.n.subscribed}/${o.subscribers} failed ${audience.n.failed} ` +
          `drops ${audience.n.drops}${extra} | load ${load1().toFixed(1)}`,
      );
    await audience.open(o.subscribers, o.rampPerSec, 60_000, () => line('connecting'));
    line('connected');
    const subscribed = audience.n.subscribed;
    if (!subscribed)
      throw new Error(`${label}: no client subscribed (${JSON.stringify(audience.failures)})`);
    await sleep(1000); // connection setup garbage and timers settle before the idle reading
    const idle1 = await server.sample(true);

    await publisher.request({
      type: 'publish',
      mode: id === 'a' ? 'emitter' : 'bus',
      redisUrl: o.redisUrl,
      key, // the Socket.IO key of (a)'s adapter and emitter; the bus namespace of (b) and (c)
      ticksPerSec: o.ticksPerSec,
    });
    for (let s = 1; s <= o.warmupSec; s++) {
      await sleep(1000);
      line('warm-up');
    }
    await sleep((o.warmupSec % 1) * 1000);

    const profileFile = o.profileDir ? path.join(o.profileDir, `${id}.cpuprofile`) : null;
    if (profileFile) await server.request({ type: 'profile', action: 'start', file: profileFile });
    audience.startWindow();
    const bench0 = process.cpuUsage();
    const p0 = await publisher.request({ type: 'count' });
    const c0 = await server.sample(false);
    const w0 = performance.now();
    let prev = { at: w0, cpu: c0.cpuUs, deliveries: 0 };
    const windowMs = o.durationSec * 1000;
    while (performance.now() - w0 < windowMs) {
      await sleep(Math.min(1000, windowMs - (performance.now() - w0)));
      const now = performance.now();
      const s = await server.sample(false);
      const dt = (now - prev.at) / 1000;
      const d = audience.deliveries;
      const p99 = audience.takeRecentP99();
      line(
        'measuring',
        ` | deliveries/s ${Math.round((d - prev.deliveries) / dt)} tick p99 ${p99 === null ? '-' : p99.toFixed(2)} ms` +
          ` server CPU ${((100 * (s.cpuUs - prev.cpu)) / 1e6 / dt).toFixed(0)}%`,
      );
      prev = { at: now, cpu: s.cpuUs, deliveries: d };
    }
    const c1 = await server.sample(false);
    const p1 = await publisher.request({ type: 'count' });
    audience.stopWindow();
    const windowSec = (performance.now() - w0) / 1000;
    const bench = process.cpuUsage(bench0);
    if (profileFile) {
      await server.request({ type: 'profile', action: 'stop', file: profileFile });
      log(`[${label}] CPU profile of the window: ${profileFile}`);
    }
    await publisher.request({ type: 'halt' });

    // Deliveries are counted at the source: what was published in the window, times the
    // subscribers (each server sends every message to every subscriber). Receipts counted by the
    // clients lag behind when this process is slow, so they are a cross-check, not the divisor.
    const sent = (p1.ticks - p0.ticks + p1.snapshots - p0.snapshots) * subscribed;
    const cpuUs = c1.cpuUs - c0.cpuUs;
    return {
      id,
      subscribers: o.subscribers,
      subscribed,
      failed: audience.n.failed,
      drops: audience.n.drops,
      heapPerConn: (idle1.heapUsed - idle0.heapUsed) / subscribed,
      rssPerConn: (idle1.rss - idle0.rss) / subscribed,
      externalPerConn: (idle1.external - idle0.external) / subscribed,
      windowSec,
      received: audience.deliveries,
      sent,
      cpuUsPerDelivery: sent ? cpuUs / sent : NaN,
      systemUsPerDelivery: sent ? (c1.systemUs - c0.systemUs) / sent : NaN,
      serverCpuPct: (100 * cpuUs) / 1e6 / windowSec,
      benchCpuPct: (100 * (bench.user + bench.system)) / 1e6 / windowSec,
      tick: audience.tickLatency(),
      firstReceipt: audience.firstReceiptLatency(),
      snapshot: audience.snapshotLatency(),
      loadAvg: { before: loadBefore, after: load1() },
    };
  } finally {
    await audience.close();
    await server.stop();
    track(null);
  }
}

/**
 * Runs the phases in order (a fresh server process each, one publisher for all) and returns their
 * rows; throws when a phase cannot run. Children are stopped whatever happens.
 */
export async function runBench(
  o: BenchOptions,
  log: (line: string) => void = (line) => console.log(line),
): Promise<PhaseResult[]> {
  if (o.profileDir) mkdirSync(o.profileDir, { recursive: true });
  const namespace = o.namespace ?? `bench${process.pid.toString(36)}${Date.now().toString(36)}`;
  log(
    `bench:gateway ${o.subscribers} subscribers per room (market, ticks:${BENCH_PRODUCT}), ` +
      `${o.ticksPerSec} ticks/s + 1 snapshot/s, ${o.warmupSec} s warm-up + ${o.durationSec} s measured per server; ` +
      `Redis ${o.redisUrl} namespace ${namespace}; ${os.availableParallelism()} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );

  // Bounded whatever happens: past the watchdog the children are stopped and the run fails.
  let current: Child | null = null;
  const publisher = new Child('publisher', 'tests/load/bench/publisher.ts', {});
  const stopAll = () => Promise.all([current?.stop(2000), publisher.stop(2000)]);
  const perPhaseSec = 60 + 60 + o.warmupSec + o.durationSec + 30;
  let expired = false;
  const watchdog = setTimeout(
    () => {
      expired = true;
      log('bench:gateway: watchdog expired, stopping');
      void stopAll();
    },
    (perPhaseSec * o.only.length + 60) * 1000,
  );
  watchdog.unref();
  const onSigint = () => void stopAll().then(() => process.exit(130));
  process.once('SIGINT', onSigint);

  const rows: PhaseResult[] = [];
  try {
    await publisher.ready(60_000);
    for (const id of o.only) {
      if (expired) throw new Error('watchdog expired');
      rows.push(await runPhase(id, o, publisher, namespace, log, (c) => (current = c)));
      await sleep(1000);
    }
    return rows;
  } finally {
    clearTimeout(watchdog);
    process.off('SIGINT', onSigint);
    await stopAll();
  }
}

export function formatBench(o: BenchOptions, rows: PhaseResult[]): string {
  return [
    '',
    `── bench:gateway: ${o.subscribers} subscribers per room, ${o.ticksPerSec} ticks/s + 1 market snapshot/s, ` +
      `${o.durationSec} s measured per server`,
    formatResults(rows),
    `CPU: the server process's user+system time over the window ÷ deliveries (messages published in the window × subscribers).`,
    `Latency: publisher stamp (tick.ts, µs) → receipt by a light client, every tick to every subscriber;` +
      ` "1st p99": each tick's earliest receipt only (the path without the fan-out).`,
    `Heap: heapUsed after a full GC with the subscribers connected and idle, minus before, ÷ subscribers.`,
    `This process (the ${o.subscribers} clients) used ${rows.map((r) => `${r.id}: ${r.benchCpuPct.toFixed(0)}%`).join(', ')} of one core; ` +
      `it shares ${os.availableParallelism()} cores with the servers, Redis and the publisher, so latency includes its own queueing.`,
  ].join('\n');
}

async function main(): Promise<number> {
  if (process.argv.includes('--help')) {
    console.log(usage);
    return 0;
  }
  let o: BenchOptions;
  try {
    o = parseBenchArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  try {
    const rows = await runBench(o);
    console.log(formatBench(o, rows));
    return 0;
  } catch (err) {
    console.error(`bench:gateway failed: ${(err as Error).message}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
