/**
 * `npm run bench:idle`: the CPU the embedded app (`npm start`: api, gateway, simulator, tape
 * writer, settlement workers, PGlite, in one process) spends at rest, with nobody connected.
 * Starts it on a fresh DATA_DIR, waits for it to be ready and for its first-start work to end
 * (`--warmup` seconds: past the first ledger check, a minute after start, which reads the whole
 * ledger and then runs every LEDGER_CHECK_MINUTES), then reads the process's CPU (every thread,
 * from /proc) over `--seconds`, and prints ms of CPU per second, each thread's beside (the main
 * thread's id is the process's), with the machine's load. Asserts nothing.
 * `--profile dir`: also write the main thread's CPU profile there (node --cpu-prof).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEntry, waitForHttp } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';

const { values } = parseArgs({
  options: {
    warmup: { type: 'string', default: '75' },
    seconds: { type: 'string', default: '30' },
    runs: { type: 'string', default: '3' },
    profile: { type: 'string' },
  },
});
const warmupS = Number(values.warmup);
const seconds = Number(values.seconds);
const runs = Number(values.runs);

/** User + system CPU of a process (all its threads) or of one thread, in ms (USER_HZ is 100). */
function cpuMs(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
/** Each thread's CPU so far, by thread id, with its name. */
function threads(pid: number): Map<string, { name: string; ms: number }> {
  const out = new Map<string, { name: string; ms: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      out.set(tid, { name, ms: cpuMs(`/proc/${pid}/task/${tid}/stat`) });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}
/** The threads that spent CPU between two readings, busiest first: "name tid ms/s". */
function byThread(
  before: ReturnType<typeof threads>,
  after: ReturnType<typeof threads>,
  s: number,
): string {
  return [...after]
    .map(([tid, t]) => ({ tid, name: t.name, perS: (t.ms - (before.get(tid)?.ms ?? 0)) / s }))
    .filter((t) => t.perS > 0)
    .sort((a, b) => b.perS - a.perS)
    .map((t) => `${t.name} ${t.tid} ${t.perS.toFixed(1)}`)
    .join(', ');
}
const load = () => os.loadavg()[0]!.toFixed(2);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-idle-'));
const port = await freePort();
const app = startEntry(
  'server/src/main/all.ts',
  { PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' },
  values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [],
);
let stopping = false;
// An app that ends before it is asked to (it failed to start, say): its output is printed, stop.
void app.exited.then(() => stopping || process.exit(1));
try {
  const started = Date.now();
  await waitForHttp(`http://127.0.0.1:${port}/readyz`, 200, 180_000);
  console.log(
    `embedded app ready in ${((Date.now() - started) / 1000).toFixed(1)} s (fresh DATA_DIR); ` +
      `warming up ${warmupS} s, then ${runs} × ${seconds} s at rest; cores: ${os.availableParallelism()}`,
  );
  await sleep(warmupS * 1000);
  const pid = app.child.pid!;
  const figures: number[] = [];
  for (let i = 1; i <= runs; i++) {
    const load0 = load();
    const c0 = cpuMs(`/proc/${pid}/stat`);
    const th0 = threads(pid);
    const t0 = performance.now();
    await sleep(seconds * 1000);
    const s = (performance.now() - t0) / 1000;
    const perS = (cpuMs(`/proc/${pid}/stat`) - c0) / s;
    figures.push(perS);
    console.log(
      `run ${i}: ${perS.toFixed(1)} ms of CPU a second at rest (load ${load0} → ${load()})\n` +
        `  by thread, ms/s: ${byThread(th0, threads(pid), s)}`,
    );
  }
  const sorted = [...figures].sort((a, b) => a - b);
  console.log(
    `at rest: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms/s, ` +
      `spread ${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)} ms/s over ${runs} runs of ${seconds} s`,
  );
} finally {
  stopping = true;
  await app.stop(values.profile ? 'SIGINT' : 'SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
