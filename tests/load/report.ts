import { build, type Histogram } from 'hdr-histogram-js';
import type { SampleReport } from './sample';

/** Latency histograms record microseconds (integers), so sub-millisecond figures survive. */
export function newHistogram(): Histogram {
  return build({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3, autoResize: true });
}

/** Milliseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

export function summarize(h: Histogram): LatencySummary {
  const ms = (us: number) => us / 1000;
  return {
    count: h.totalCount,
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    p999: ms(h.getValueAtPercentile(99.9)),
    max: ms(h.maxValue),
  };
}

/** The Prometheus figures this tool knows how to turn into per-connection costs. */
export const serverMetricNames = [
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_heap_size_used_bytes',
] as const;
export type ServerMetricName = (typeof serverMetricNames)[number];

/**
 * Reads the wanted samples from Prometheus text exposition. A sample line is
 * `name{labels} value [timestamp]`; for a labelled metric the samples are summed.
 */
export function parsePrometheus(text: string, names: readonly string[]): Map<string, number> {
  const wanted = new Set(names);
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m || !wanted.has(m[1]!)) continue;
    const v = Number(m[3]);
    if (Number.isFinite(v)) out.set(m[1]!, (out.get(m[1]!) ?? 0) + v);
  }
  return out;
}

export type MetricsScrape = { ok: true; values: Map<string, number> } | { ok: false; why: string };

export async function scrapeMetrics(url: string): Promise<MetricsScrape> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) return { ok: false, why: `${url} answered ${res.status}` };
    return { ok: true, values: parsePrometheus(await res.text(), serverMetricNames) };
  } catch (err) {
    return { ok: false, why: `${url}: ${(err as Error).message}` };
  }
}

export interface ServerCost {
  /** Per metric: end − start, or null when the server does not expose it. */
  deltas: Record<ServerMetricName, number | null>;
  note?: string;
}

export function serverCost(start: MetricsScrape, end: MetricsScrape): ServerCost {
  const deltas = {} as Record<ServerMetricName, number | null>;
  for (const n of serverMetricNames) {
    const a = start.ok ? start.values.get(n) : undefined;
    const b = end.ok ? end.values.get(n) : undefined;
    deltas[n] = a === undefined || b === undefined ? null : b - a;
  }
  const failed = [start, end].find((s) => !s.ok);
  const absent = serverMetricNames.filter((n) => deltas[n] === null);
  let note: string | undefined;
  if (failed && !failed.ok) note = `metrics not read: ${failed.why}`;
  else if (absent.length) note = `not exposed by the server: ${absent.join(', ')}`;
  return note ? { deltas, note } : { deltas };
}

export interface LoadReport {
  url: string;
  channels: string[];
  clients: number;
  wallSec: number;
  connect: {
    connected: number;
    failed: number;
    failures: Record<string, number>;
    /** Connected clients per second, from the first attempt to the last connect. */
    ratePerSec: number;
    rampSec: number;
    latency: LatencySummary;
  };
  subscribe: { ok: number; failed: number };
  deliveries: {
    ticks: number;
    snapshots: number;
    /** Ticks sent on subscribe (the last known one), not live: excluded from latency. */
    initialTicks: number;
    /** Rates and latencies cover the steady window (all clients in), or the whole run when there was none. */
    steady: boolean;
    windowSec: number;
    ticksPerSec: number;
    snapshotsPerSec: number;
  };
  /** sim publish (tick.ts) → receipt here; over the steady window when it has samples. */
  tickLatency: LatencySummary;
  /** Per tick, its earliest receipt across clients: sim → bus → gateway → first socket. */
  firstReceiptLatency: LatencySummary;
  snapshotLatency: LatencySummary;
  errors: {
    disconnects: number;
    subscribeFailures: number;
    connectFailures: number;
    clockSkew: number;
  };
  sample: SampleReport | null;
  server: (ServerCost & { perConnection: number }) | null;
  loadProcess: { cpuSec: number; cpuPctOfOneCore: number; rssMb: number; eventLoopP99Ms: number };
}

const f = (n: number, d = 2) => n.toFixed(d);
const lat = (l: LatencySummary) =>
  l.count
    ? `p50 ${f(l.p50)}  p90 ${f(l.p90)}  p99 ${f(l.p99)}  p99.9 ${f(l.p999)}  max ${f(l.max)} ms  (n=${l.count})`
    : 'no samples';

export function formatReport(r: LoadReport): string {
  const c = r.connect;
  const d = r.deliveries;
  const lines = [
    `── load report: ${r.clients} light clients → ${r.url}  channels ${r.channels.join(',')}  (${f(r.wallSec, 1)} s)`,
    `connect      ${c.connected}/${r.clients} connected, ${c.failed} failed, ${f(c.ratePerSec, 0)} clients/s over ${f(c.rampSec, 1)} s; connect ${lat(c.latency)}`,
  ];
  if (c.failed) lines.push(`  failures   ${JSON.stringify(c.failures)}`);
  lines.push(
    `subscribe    ${r.subscribe.ok} ok, ${r.subscribe.failed} failed`,
    `deliveries   ${f(d.ticksPerSec, 0)} ticks/s, ${f(d.snapshotsPerSec, 0)} snapshots/s over ${f(d.windowSec, 1)} s ${d.steady ? 'steady window' : 'whole run'} (totals: ${d.ticks} ticks, ${d.snapshots} snapshots, ${d.initialTicks} on-subscribe ticks)`,
    `tick latency ${lat(r.tickLatency)}`,
    `  first rcpt ${lat(r.firstReceiptLatency)}`,
    `snapshot lat ${lat(r.snapshotLatency)}`,
    `errors       disconnects ${r.errors.disconnects}, subscribe failures ${r.errors.subscribeFailures}, connect failures ${r.errors.connectFailures}, negative latencies ${r.errors.clockSkew}`,
  );
  if (r.sample) {
    const s = r.sample;
    const v = s.violations;
    lines.push(
      `sample       ${s.connected}/${s.clients} socket.io-client sockets, ${s.ticks} ticks checked: ${v.backwards} out of order, ${v.gaps} gaps (${v.missing} ticks missing), ${s.disconnects} disconnects, ${s.subscribeFailures} subscribe failures`,
    );
  }
  if (r.server) {
    const n = Math.max(1, r.server.perConnection);
    const dd = r.server.deltas;
    const parts: string[] = [];
    const cpu = dd.process_cpu_seconds_total;
    if (cpu !== null) parts.push(`CPU ${f(cpu)} s (${f((100 * cpu) / r.wallSec, 0)}% of one core)`);
    const rss = dd.process_resident_memory_bytes;
    if (rss !== null)
      parts.push(`RSS ${f(rss / 2 ** 20, 1)} MiB = ${f(rss / n / 1024, 1)} KiB/conn`);
    const heap = dd.nodejs_heap_size_used_bytes;
    if (heap !== null)
      parts.push(`heap ${f(heap / 2 ** 20, 1)} MiB = ${f(heap / n / 1024, 1)} KiB/conn`);
    lines.push(`server       ${parts.length ? parts.join('; ') : 'no figures'}`);
    if (r.server.note) lines.push(`  note       ${r.server.note}`);
  }
  const p = r.loadProcess;
  lines.push(
    `load process CPU ${f(p.cpuSec)} s (${f(p.cpuPctOfOneCore, 0)}% of one core), RSS ${f(p.rssMb, 0)} MiB, event-loop delay p99 ${f(p.eventLoopP99Ms)} ms`,
  );
  return lines.join('\n');
}
