import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { assertGatewayUrl, assertTarget, parseCli, usage, type LoadOptions } from './args';
import { runInProcesses } from './processes';
import { buildReport, formatReport, type LoadReport } from './report';
import type { LoadDocument } from './results';
import { runShare, type ProcessRun } from './runner';
import { loadScenario, peakClients, scenarioFromFlags, type Scenario } from './scenario';
import { serverFigures } from './server-metrics';
import {
  checkThresholds,
  parseThresholds,
  withDefaults,
  type Breach,
  type Threshold,
} from './thresholds';

export type { LoadReport } from './report';
export type { LoadOptions } from './args';

export interface RunOptions {
  processes?: number;
  allowRemote?: boolean;
  embedded?: boolean;
  progress?: (line: string) => void;
  signal?: AbortSignal;
  /** For traders' invitations and funding; the CLI's comes from OPERATOR_TOKEN. */
  operatorToken?: string;
}

/** Runs a scenario (in this process, or spread over `processes` children) into a document. */
export async function runScenario(scn: Scenario, o: RunOptions = {}): Promise<LoadDocument> {
  for (const url of [...scn.targets, ...(scn.api ? [scn.api] : []), ...scn.metrics])
    assertTarget(url, o.allowRemote);
  for (const url of scn.targets) assertGatewayUrl(url);
  const progress = o.progress ?? ((line: string) => console.log(line));
  const n = o.processes ?? 1;
  // The deprecated scenario field still works, but the token never reaches the document.
  const operatorToken = o.operatorToken ?? scn.operatorToken;
  const stored: Scenario = { ...scn };
  delete stored.operatorToken;
  const secret = operatorToken ? { operatorToken } : {};
  const runs: ProcessRun[] =
    n > 1
      ? await runInProcesses(stored, n, {
          progress,
          ...(o.signal ? { signal: o.signal } : {}),
          embedded: !!o.embedded,
          ...secret,
        })
      : [
          await runShare(stored, {
            index: 0,
            of: 1,
            scrape: true,
            progress,
            ...secret,
            ...(o.signal ? { signal: o.signal } : {}),
            ...(o.embedded ? { embedded: true } : {}),
          }),
        ];
  const processes = runs.map((r) => r.result);
  const connections = processes.reduce(
    (a, p) => a + p.counters.connected - p.counters.plannedCloses,
    0,
  );
  const scraped = runs.find((r) => r.scraped.series.length)?.scraped;
  const server = scraped
    ? scraped.series.map((s) => {
        const fig = serverFigures(s, scraped.window, connections);
        // Only one process counted its clients' ticks: the others' receipts are not in it.
        return n > 1 ? { ...fig, loss: null } : fig;
      })
    : [];
  return {
    format: 'tradeapp-load/1',
    createdAt: new Date().toISOString(),
    scenario: stored,
    clients: peakClients(stored),
    processes,
    server,
    serverReadings: scraped?.series ?? [],
  };
}

/** The quick path (flags): opens the clients, measures for `durationSec`, and reports. */
export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  assertTarget(o.url, o.allowRemote);
  const scn = scenarioFromFlags({
    url: o.url,
    clients: o.clients,
    rampPerSec: o.rampPerSec,
    durationSec: o.durationSec,
    channels: o.channels,
    sample: o.sample,
    connectTimeoutMs: o.connectTimeoutMs ?? 10_000,
    metricsUrls: o.metricsUrl ? o.metricsUrl.split(',') : [],
    ...(o.arrival ? { arrival: o.arrival } : {}),
  });
  return buildReport(
    await runScenario(scn, {
      ...(o.allowRemote ? { allowRemote: true } : {}),
      ...(o.embedded ? { embedded: true } : {}),
      ...(o.progress ? { progress: o.progress } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    }),
  );
}

/**
 * The verdict: thresholds broken, and the run's own failures (nothing connected, subscriptions
 * refused: a misconfigured run measures nothing worth reading). Empty when the run passed.
 */
export function verdict(
  r: LoadReport,
  thresholds: Threshold[],
): { breaches: Breach[]; problems: string[] } {
  const problems: string[] = [];
  if (r.connect.connected === 0) problems.push('nothing connected');
  if (r.subscribe.failed > 0)
    problems.push(
      `${r.subscribe.failed} subscriptions refused (${Object.keys(r.subscribe.errors).join(', ')})`,
    );
  return { breaches: checkThresholds(thresholds, r.figures), problems };
}

async function main(): Promise<number> {
  if (process.argv.includes('--help')) {
    console.log(usage);
    return 0;
  }
  let cli: ReturnType<typeof parseCli>;
  let scn: Scenario;
  let thresholds: Threshold[];
  try {
    cli = parseCli(process.argv.slice(2));
    const o = cli.load;
    scn = cli.scenarioFile
      ? loadScenario(cli.scenarioFile)
      : scenarioFromFlags({
          ...o,
          connectTimeoutMs: o.connectTimeoutMs ?? 10_000,
          metricsUrls: o.metricsUrl?.split(',') ?? [],
        });
    thresholds = withDefaults([...parseThresholds(scn.failOn ?? ''), ...cli.thresholds]);
    for (const url of [...scn.targets, ...scn.metrics]) assertTarget(url, o.allowRemote);
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  if (scn.operatorToken)
    console.error(
      'warning: operatorToken in a scenario file is deprecated (a secret in a file, and it ' +
        `used to be copied into --json documents): set OPERATOR_TOKEN in the environment${
          process.env.OPERATOR_TOKEN ? ', which is used here' : ''
        }`,
    );
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  let doc: LoadDocument;
  try {
    doc = await runScenario(scn, {
      processes: cli.processes,
      allowRemote: !!cli.load.allowRemote,
      signal: abort.signal,
      ...(process.env.OPERATOR_TOKEN ? { operatorToken: process.env.OPERATOR_TOKEN } : {}),
    });
  } catch (err) {
    console.error(`run failed: ${(err as Error).message}`);
    return 1;
  }
  if (cli.jsonFile) writeFileSync(cli.jsonFile, JSON.stringify(doc));
  const report = buildReport(doc);
  console.log(formatReport(report));
  return printVerdict(report, thresholds);
}

/** Why connects failed: how many of how many, by reason (refused, reset, timeout, …). */
function connectFailureLine(r: LoadReport): string {
  const { connected, failed, failures } = r.connect;
  const pct = (100 * failed) / Math.max(1, connected + failed);
  const why = Object.entries(failures)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${v}× ${k}`)
    .join(', ');
  return `  ${failed} of ${connected + failed} connects failed (${pct.toFixed(1)}%): ${why}`;
}

/** Prints what failed; returns the exit code (1 when anything did). */
export function printVerdict(report: LoadReport, thresholds: Threshold[]): number {
  const limited = report.connect.failures['connect_error RATE_LIMITED'] ?? 0;
  if (limited)
    console.log(
      `\n${limited} connections were refused RATE_LIMITED: the server limits sockets per client ` +
        'address, and every client of this run comes from this one. Start the server under test ' +
        'with SOCKET_CONNECT_RATE=off SOCKET_MAX_PER_ADDRESS=off (or limits above --clients).',
    );
  const { breaches, problems } = verdict(report, thresholds);
  for (const p of problems) console.log(`FAILED: ${p}`);
  for (const b of breaches) console.log(`FAILED: ${b.message}`);
  if (breaches.some((b) => /^connectFailure/.test(b.threshold.figure)))
    console.log(connectFailureLine(report));
  if (!problems.length && !breaches.length && thresholds.length)
    console.log(
      `passed: ${thresholds.map((t) => `${t.text}${t.byDefault ? ' (default)' : ''}`).join(', ')}`,
    );
  return problems.length || breaches.length ? 1 : 0;
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
