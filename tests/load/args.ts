import { parseArgs } from 'node:util';
import { parseThresholds, type Threshold } from './thresholds';

/** The options of a load run, and the CLI flags that set them. */

export interface LoadOptions {
  /** Base URL of the gateway, e.g. http://127.0.0.1:3000. The only host this run talks to. */
  url: string;
  clients: number;
  channels: string[];
  /** Whole run, ramp included, in seconds: the run is bounded by it. */
  durationSec: number;
  /** New light clients per second. */
  rampPerSec: number;
  /**
   * Open model instead of the ramp and hold: `rate` new clients a second for the whole duration,
   * each staying `sessionSec` from its connection, at most `maxClients` at once.
   */
  arrival?: { rate: number; sessionSec?: number; maxClients?: number };
  /** socket.io-client sockets that check tick order. */
  sample: number;
  /** Prometheus endpoints of the processes under test (their METRICS_PORT), read once a second. */
  metricsUrl?: string;
  connectTimeoutMs?: number;
  /** Allow a non-loopback target (off by default: this tool is for a machine's own server). */
  allowRemote?: boolean;
  /** Progress lines (once a second); default stdout, pass () => {} to silence. */
  progress?: (line: string) => void;
  /** Ends the run early (Ctrl-C), still producing a report. */
  signal?: AbortSignal;
  /** The caller started the server in embedded mode (the simulator inside the measured process). */
  embedded?: boolean;
}

/** What only the CLI has: a scenario file, the JSON output, thresholds, processes. */
export interface CliOptions {
  load: LoadOptions;
  scenarioFile: string | null;
  jsonFile: string | null;
  thresholds: Threshold[];
  processes: number;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

export function assertTarget(url: string, allowRemote = false): void {
  const u = new URL(url);
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol))
    throw new Error(`unsupported URL ${url}`);
  if (!allowRemote && !LOOPBACK.test(u.hostname))
    throw new Error(
      `${u.hostname} is not a loopback address; pass --allow-remote to load it anyway`,
    );
}

/** A gateway URL with a path would lose it (the gateway serves /socket.io/ at its root). */
export function assertGatewayUrl(url: string): void {
  const u = new URL(url);
  if (u.pathname !== '/' || u.search)
    throw new Error(`${url}: give the gateway's base URL, without a path (it serves /socket.io/)`);
}

export const usage = `usage: npm run load -- [--url http://127.0.0.1:3000] [--clients 100]
  [--channels market,ticks:BTCUSDT] [--duration 30] [--ramp 500/s] [--sample 5]
  [--metrics http://127.0.0.1:9464/metrics[,…]] [--connect-timeout 10] [--allow-remote]
  [--scenario file.yaml] [--json out.json] [--fail-on 'p99<50ms,subscribeFailures=0,gaps=0']
  [--processes N] [--arrival-rate 50/s [--session 60s] [--max-clients 5000]]
  --arrival-rate: open model (as k6's constant-arrival-rate) instead of --clients and --ramp:
    new clients a second for --duration, each leaving --session after it connected; an arrival
    due while --max-clients are connecting or connected is dropped and counted.
  --scenario: phases, anonymous subscribers and logged-in traders (docs/LOAD-TESTING.md); the
    other load flags are then ignored. --json: configuration, per-second series and encoded
    histograms of every process, for npm run load:merge. --fail-on: exit 1 naming each broken
    threshold; without a threshold on connectFailures or connectFailureRate, connectFailures=0
    applies. --metrics: the servers' private metrics listeners (METRICS_PORT).
Traders' invitations and funding use OPERATOR_TOKEN from the environment.
Every client connects from this machine's one address: start the server under test with
SOCKET_CONNECT_RATE=off SOCKET_MAX_PER_ADDRESS=off (or limits above --clients).`;

/** Parses the CLI flags (shared with tick-latency.ts); throws with the usage text on bad input. */
export function parseCli(argv: string[], defaults: Partial<LoadOptions> = {}): CliOptions {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      clients: { type: 'string' },
      channels: { type: 'string' },
      duration: { type: 'string' },
      ramp: { type: 'string' },
      sample: { type: 'string' },
      metrics: { type: 'string' },
      'connect-timeout': { type: 'string' },
      'allow-remote': { type: 'boolean' },
      scenario: { type: 'string' },
      json: { type: 'string' },
      'fail-on': { type: 'string' },
      processes: { type: 'string' },
      'arrival-rate': { type: 'string' },
      'max-clients': { type: 'string' },
      session: { type: 'string' },
    },
  });
  const int = (name: string, raw: string | undefined, fallback: number, min: number) => {
    if (raw === undefined) return fallback;
    const unit = { ramp: /^(\d+)(\/s)?$/, 'arrival-rate': /^(\d+)(\/s)?$/, session: /^(\d+)(s)?$/ };
    const m = (unit[name as keyof typeof unit] ?? /^(\d+)()$/).exec(raw);
    const value = m ? Number(m[1]) : NaN;
    if (!(value >= min)) throw new Error(`--${name} must be a whole number ≥ ${min}\n${usage}`);
    return value;
  };
  const metricsUrl = v.metrics ?? defaults.metricsUrl;
  const url = v.url ?? defaults.url ?? 'http://127.0.0.1:3000';
  assertGatewayUrl(url);
  let thresholds: Threshold[];
  try {
    thresholds = parseThresholds(v['fail-on'] ?? '');
  } catch (err) {
    throw new Error(`--fail-on: ${(err as Error).message}`);
  }
  const rate = v['arrival-rate'];
  if (rate === undefined && (v.session !== undefined || v['max-clients'] !== undefined))
    throw new Error(`--session and --max-clients go with --arrival-rate\n${usage}`);
  if (rate !== undefined && (v.clients !== undefined || v.ramp !== undefined))
    throw new Error(`--arrival-rate replaces --clients and --ramp (cap: --max-clients)\n${usage}`);
  const arrival =
    rate === undefined
      ? undefined
      : {
          rate: int('arrival-rate', rate, 0, 1),
          ...(v.session !== undefined ? { sessionSec: int('session', v.session, 0, 1) } : {}),
          ...(v['max-clients'] !== undefined
            ? { maxClients: int('max-clients', v['max-clients'], 0, 1) }
            : {}),
        };
  return {
    load: {
      url,
      clients: int('clients', v.clients, defaults.clients ?? 100, 1),
      channels: (v.channels?.split(',') ?? defaults.channels ?? ['market', 'ticks:BTCUSDT'])
        .map((c) => c.trim())
        .filter(Boolean),
      durationSec: int('duration', v.duration, defaults.durationSec ?? 30, 1),
      rampPerSec: int('ramp', v.ramp, defaults.rampPerSec ?? 500, 1),
      sample: int('sample', v.sample, defaults.sample ?? 5, 0),
      connectTimeoutMs: int('connect-timeout', v['connect-timeout'], 10, 1) * 1000,
      allowRemote: v['allow-remote'] ?? false,
      ...(metricsUrl ? { metricsUrl } : {}),
      ...(arrival ? { arrival } : {}),
    },
    scenarioFile: v.scenario ?? null,
    jsonFile: v.json ?? null,
    thresholds,
    processes: int('processes', v.processes, 1, 1),
  };
}

/** The load options alone (the benches' flags). */
export const parseLoadArgs = (argv: string[], defaults: Partial<LoadOptions> = {}) =>
  parseCli(argv, defaults).load;
