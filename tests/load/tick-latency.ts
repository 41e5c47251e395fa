import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildReport, formatReport } from './report';
import { parseCli, usage as loadUsage } from './args';
import { printVerdict, runScenario } from './load';
import { scenarioFromFlags } from './scenario';
import { withDefaults } from './thresholds';
import { oneAddressSocketEnv } from '../support/socket-limits';

/**
 * End-to-end tick latency on one machine: starts the embedded app (sim → in-process bus →
 * gateway) as a child process, loads it with light clients, and reports sim publish → client
 * receipt. Both sides read the same clock, so the figure needs no clock sync.
 *
 * `npm run bench:latency -- [--port 0] [--clients 500] [--duration 20] [--channels …] [--ramp …]
 * [--sample …] [--json out.json] [--fail-on …]`
 */

const usage = `usage: npm run bench:latency -- [--port 0] [--metrics-port 0] [load flags]
  Starts the embedded app (npm start) on --port (0: a free one) with its metrics on --metrics-port,
  and loads it; the load flags are npm run load's:
${loadUsage.replace(/^usage: npm run load -- /, '  ')}`;

const repoRoot = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');

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

async function waitReady(url: string, exited: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    if (exited()) throw new Error('the app exited before it was ready');
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
      last = `status ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready in ${ms} ms (${last})`);
}

/** Splits this bench's own flags (--port, --metrics-port) from the load flags. */
function benchArgs(argv: string[]) {
  const { values, tokens } = parseArgs({
    args: argv,
    strict: false,
    tokens: true,
    options: {
      port: { type: 'string' },
      'metrics-port': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const own = new Set(['port', 'metrics-port', 'help']);
  const rest: string[] = [];
  for (const t of tokens)
    if (t.kind === 'option' && !own.has(t.name))
      rest.push(t.rawName, ...(t.value !== undefined ? [t.value] : []));
    else if (t.kind === 'positional') rest.push(t.value);
  const port = (name: 'port' | 'metrics-port') => {
    const raw = values[name];
    if (raw === undefined) return 0;
    const n = Number(raw);
    if (!(Number.isInteger(n) && n >= 0 && n <= 65_535))
      throw new Error(`--${name} must be a port number\n${usage}`);
    return n;
  };
  return {
    help: values.help === true,
    port: port('port'),
    metricsPort: port('metrics-port'),
    rest,
  };
}

async function main(): Promise<number> {
  let args: ReturnType<typeof benchArgs>;
  let cli: ReturnType<typeof parseCli>;
  try {
    args = benchArgs(process.argv.slice(2));
    if (args.help) {
      console.log(usage);
      return 0;
    }
    cli = parseCli(args.rest, { clients: 500, durationSec: 20 });
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  const options = cli.load;
  const port = args.port || (await freePort());
  const metricsPort = args.metricsPort || (await freePort()); // /metrics: a private listener only
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tick-latency-'));
  const base = `http://127.0.0.1:${port}`;

  const app = spawn(tsx, [path.join(repoRoot, 'server/src/main/all.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      DATA_DIR: dataDir,
      SIM_BACKFILL_HOURS: '1', // a short history: the app is up in seconds
      LOG_LEVEL: 'warn',
      ...oneAddressSocketEnv, // every load client comes from 127.0.0.1
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let appOutput = '';
  const keep = (b: Buffer) => (appOutput = (appOutput + b.toString()).slice(-8000));
  app.stdout.on('data', keep);
  app.stderr.on('data', keep);
  const appState: { exit: number | string | null } = { exit: null };
  const exited = new Promise<void>((resolve) =>
    app.once('exit', (code, signal) => {
      appState.exit = code ?? signal ?? -1;
      resolve();
    }),
  );

  const stopApp = async () => {
    if (appState.exit === null) app.kill('SIGTERM');
    const killTimer = setTimeout(() => app.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killTimer);
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stopApp().then(() => process.exit(130)));

  try {
    const t = Date.now();
    await waitReady(`${base}/readyz`, () => appState.exit !== null, 90_000);
    console.log(
      `app ready on ${base} in ${((Date.now() - t) / 1000).toFixed(1)} s (pid ${app.pid})`,
    );
    const loadBefore = os.loadavg()[0]!;
    const scenario = scenarioFromFlags({
      ...options,
      url: base,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      metricsUrls: [`http://127.0.0.1:${metricsPort}/metrics`],
    });
    const doc = await runScenario(scenario, { processes: cli.processes, embedded: true });
    if (cli.jsonFile) writeFileSync(cli.jsonFile, JSON.stringify(doc));
    const report = buildReport(doc);
    const loadAfter = os.loadavg()[0]!;
    console.log(formatReport(report));
    const cores = os.availableParallelism();
    const l = report.tickLatency;
    const first = report.firstReceiptLatency;
    console.log(
      [
        ``,
        `tick latency, sim publish → client receipt, ${report.connect.connected} clients: ` +
          `p50 ${l.p50.toFixed(2)} ms, p99 ${l.p99.toFixed(2)} ms ` +
          `(first receipt of each tick: p50 ${first.p50.toFixed(2)} ms, p99 ${first.p99.toFixed(2)} ms)`,
        `caveat: the app and this load generator share ${cores} CPU cores. The generator used ` +
          `${report.loadProcess.cpuSec.toFixed(2)} CPU s (${report.loadProcess.cpuPctOfOneCore.toFixed(0)}% of one core) ` +
          `and its own event-loop delay (p99 ${report.loadProcess.eventLoopP99Ms.toFixed(2)} ms) is inside every ` +
          `latency figure. tick.ts is whole milliseconds, so figures carry up to +1 ms of rounding.`,
        `machine load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after: ` +
          `well above ${cores} means other work shared the cores and the figures are pessimistic.`,
      ].join('\n'),
    );
    return printVerdict(report, withDefaults(cli.thresholds));
  } catch (err) {
    console.error(`bench failed: ${(err as Error).message}`);
    if (appState.exit !== null)
      console.error(`app exited with ${appState.exit}; its last output:\n${appOutput}`);
    return 1;
  } finally {
    await stopApp();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
