import type { Histogram } from 'hdr-histogram-js';
import { mergeResults, type LoadDocument, type Merged, type Silence } from './results';
import type { SampleReport } from './sample';
import { peakClients } from './scenario';
import type { ServerFigures } from './server-metrics';

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

export interface SilenceSummary extends Silence {
  channel: string;
  /** The mean interval between items over the run: what the channel's rate promises. */
  expectedMs: number;
}

export interface LoadReport {
  url: string;
  targets: string[];
  channels: string[];
  clients: number;
  processes: number;
  wallSec: number;
  connect: {
    connected: number;
    failed: number;
    abandoned: number;
    failures: Record<string, number>;
    latency: LatencySummary;
  };
  subscribe: { ok: number; failed: number; errors: Record<string, number> };
  /** The open model's arrivals (null without an arrival phase). */
  arrivals: {
    /** The phases' rates, new clients a second, and their caps (null: none). */
    phases: {
      rate: number;
      session: number | null;
      maxClients: number | null;
      who: 'subscribers' | 'traders';
    }[];
    started: number;
    /** Not started: their phase had `maxClients` connecting or connected (k6's dropped_iterations). */
    dropped: number;
    /** The most clients connected at once (over several processes, the sum of their peaks). */
    peakConcurrent: number;
  } | null;
  deliveries: {
    ticks: number;
    snapshots: number;
    initialTicks: number;
    steady: boolean;
    windowSec: number;
    ticksPerSec: number;
    snapshotsPerSec: number;
  };
  tickLatency: LatencySummary;
  /** Per tick, its earliest receipt: these are the independent ticks the percentiles rest on. */
  firstReceiptLatency: LatencySummary;
  snapshotLatency: LatencySummary;
  silences: SilenceSummary[];
  traders: {
    count: number;
    ready: number;
    orders: number;
    ok: number;
    failed: number;
    errors: Record<string, number>;
    eventsMissing: number;
    orderEvent: LatencySummary;
    balanceEvent: LatencySummary;
    balanceChecked: number;
    balanceMismatches: number;
  } | null;
  errors: {
    disconnects: number;
    subscribeFailures: number;
    connectFailures: number;
    clockSkew: number;
  };
  sample: SampleReport | null;
  clock: Merged['clock'];
  server: ServerFigures[];
  loadProcess: Merged['loadProcess'];
  warnings: string[];
  /** Flat figures for thresholds (thresholds.ts names them). */
  figures: Record<string, number | null>;
}

/** The report of a whole run: every process of the document merged. */
export function buildReport(doc: LoadDocument): LoadReport {
  const m = mergeResults(doc.processes);
  const c = m.counters;
  const scn = doc.scenario;
  const tick = summarize(m.histograms.tick);
  const first = summarize(m.histograms.first);
  const silences = Object.entries(m.silences).map(([channel, s]) => ({
    channel,
    ...s,
    expectedMs: s.items > 1 ? s.spanMs / s.items : s.spanMs,
  }));
  const warnings = [...m.warnings];
  if (tick.count && m.loadProcess.eventLoopP99Ms >= 0.5 * tick.p99)
    warnings.push(
      `the load generator's own event-loop delay (p99 ${m.loadProcess.eventLoopP99Ms.toFixed(1)} ms) is ` +
        `near the measured tick p99 (${tick.p99.toFixed(1)} ms): the figures measure this tool as much as the server; use --processes or more hosts`,
    );
  if (first.count && first.count < 1000)
    warnings.push(
      `the percentiles rest on ${first.count} independent ticks (each fanned out to many clients): ` +
        `p99 is decided by the worst ${Math.max(1, Math.round(first.count / 100))} of them`,
    );
  const t = scn.traders
    ? {
        count: c.traders,
        ready: c.tradersReady,
        orders: c.orders,
        ok: c.ordersOk,
        failed: c.ordersFailed,
        errors: m.orderErrors,
        eventsMissing: c.orderEventsMissing,
        orderEvent: summarize(m.histograms.order),
        balanceEvent: summarize(m.histograms.balance),
        balanceChecked: c.balanceChecked,
        balanceMismatches: c.balanceMismatches,
      }
    : null;
  const loss = doc.server.map((s) => s.loss).filter((x): x is number => x !== null);
  const p = (l: LatencySummary, k: keyof LatencySummary) => (l.count ? l[k] : null);
  const connect = summarize(m.histograms.connect);
  const arrivalPhases = scn.phases.flatMap((ph) =>
    ph.kind === 'arrival'
      ? [
          {
            rate: ph.rate,
            session: ph.session ?? null,
            maxClients: ph.maxClients ?? null,
            who: ph.who ?? 'subscribers',
          },
        ]
      : [],
  );
  return {
    url: scn.targets[0]!,
    targets: scn.targets,
    channels: scn.subscribers.channels,
    clients: doc.clients ?? peakClients(scn),
    processes: m.processes,
    wallSec: m.wallSec,
    connect: {
      connected: c.connected,
      failed: c.failed,
      abandoned: c.abandoned,
      failures: m.connectFailures,
      latency: connect,
    },
    subscribe: { ok: c.subOk, failed: c.subFailed, errors: m.subscribeErrors },
    arrivals: arrivalPhases.length
      ? {
          phases: arrivalPhases,
          started: c.arrivals,
          dropped: c.droppedArrivals,
          peakConcurrent: c.peakConcurrent,
        }
      : null,
    deliveries: {
      ticks: c.ticks,
      snapshots: c.snapshots,
      initialTicks: c.initialTicks,
      steady: m.steady,
      windowSec: m.windowSec,
      ticksPerSec: (m.steady ? c.steadyTicks : c.ticks) / m.windowSec,
      snapshotsPerSec: (m.steady ? c.steadySnapshots : c.snapshots) / m.windowSec,
    },
    tickLatency: tick,
    firstReceiptLatency: first,
    snapshotLatency: summarize(m.histograms.snapshot),
    silences,
    traders: t,
    errors: {
      disconnects: c.disconnects,
      subscribeFailures: c.subFailed,
      connectFailures: c.failed,
      clockSkew: c.skew,
    },
    sample: m.sample,
    clock: m.clock,
    server: doc.server,
    loadProcess: m.loadProcess,
    warnings,
    figures: {
      p50: p(tick, 'p50'),
      p90: p(tick, 'p90'),
      p99: p(tick, 'p99'),
      p999: p(tick, 'p999'),
      max: p(tick, 'max'),
      firstP99: p(first, 'p99'),
      connectP99: p(connect, 'p99'),
      orderP99: t ? p(t.orderEvent, 'p99') : null,
      balanceP99: t ? p(t.balanceEvent, 'p99') : null,
      silence: silences.length ? Math.max(...silences.map((s) => s.longestMs)) : null,
      serverLoopMax: (() => {
        const v = doc.server.map((s) => s.eventLoopMaxMs).filter((x): x is number => x !== null);
        return v.length ? Math.max(...v) : null;
      })(),
      connectFailures: c.failed,
      connectFailureRate: c.connected + c.failed ? (100 * c.failed) / (c.connected + c.failed) : 0,
      droppedArrivals: arrivalPhases.length ? c.droppedArrivals : null,
      subscribeFailures: c.subFailed,
      disconnects: c.disconnects,
      gaps: m.sample ? m.sample.violations.gaps : null,
      backwards: m.sample ? m.sample.violations.backwards : null,
      sampleFailures: m.sample ? m.sample.clients - m.sample.connected : null,
      orderFailures: t ? t.failed + t.eventsMissing : null,
      balanceMismatches: t ? t.balanceMismatches : null,
      loss: loss.length ? loss.reduce((a, b) => a + b, 0) : null,
    },
  };
}

const f = (n: number, d = 2) => n.toFixed(d);
const lat = (l: LatencySummary) =>
  l.count
    ? `p50 ${f(l.p50)}  p90 ${f(l.p90)}  p99 ${f(l.p99)}  p99.9 ${f(l.p999)}  max ${f(l.max)} ms  (n=${l.count})`
    : 'no samples';
const reasons = (r: Record<string, number>) =>
  Object.entries(r)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${v}× ${k}`)
    .join(', ');

export function formatReport(r: LoadReport): string {
  const c = r.connect;
  const d = r.deliveries;
  const lines = [
    `── load report: ${r.clients} clients → ${r.targets.join(' ')}  channels ${r.channels.join(',')}  (${f(r.wallSec, 1)} s, ${r.processes} process${r.processes > 1 ? 'es' : ''})`,
    `connect      ${c.connected} connected, ${c.failed} failed${c.abandoned ? `, ${c.abandoned} abandoned at the end (not failures)` : ''}; from the planned slot ${lat(c.latency)}`,
  ];
  if (c.failed) lines.push(`  failures   ${reasons(c.failures)}`);
  lines.push(
    `subscribe    ${r.subscribe.ok} ok, ${r.subscribe.failed} failed${r.subscribe.failed ? `: ${reasons(r.subscribe.errors)}` : ''}`,
  );
  const a = r.arrivals;
  if (a) {
    const plan = a.phases
      .map(
        (ph) =>
          `${ph.who === 'traders' ? 'traders ' : ''}${ph.rate}/s${ph.session !== null ? ` for ${ph.session} s each` : ''}${ph.maxClients !== null ? ` (cap ${ph.maxClients})` : ''}`,
      )
      .join(', ');
    lines.push(
      `arrivals     ${plan}: ${a.started} arrived, ${a.dropped} dropped at the cap; peak ${a.peakConcurrent} connected at once${r.processes > 1 ? " (the processes' peaks summed)" : ''}`,
    );
  }
  lines.push(
    `deliveries   ${f(d.ticksPerSec, 0)} ticks/s, ${f(d.snapshotsPerSec, 0)} snapshots/s over ${f(d.windowSec, 1)} s ${d.steady ? 'steady window' : 'whole run'} (totals: ${d.ticks} ticks, ${d.snapshots} snapshots, ${d.initialTicks} on-subscribe ticks)`,
    `tick latency ${lat(r.tickLatency)}`,
    `  first rcpt ${lat(r.firstReceiptLatency)}  ← independent ticks`,
    `snapshot lat ${lat(r.snapshotLatency)}`,
  );
  for (const s of r.silences)
    lines.push(
      `silence      ${s.channel}: longest ${f(s.longestMs, 0)} ms without a new item, expected every ${f(s.expectedMs, 0)} ms (${f(s.longestMs / Math.max(1, s.expectedMs), 1)}×, ${s.items} items)`,
    );
  const t = r.traders;
  if (t) {
    lines.push(
      `traders      ${t.ready}/${t.count} signed in; orders ${t.ok} placed, ${t.failed} failed${t.failed ? ` (${reasons(t.errors)})` : ''}, ${t.eventsMissing} without an order event`,
      `  → order    ${lat(t.orderEvent)}`,
      `  → balance  ${lat(t.balanceEvent)}`,
      `  ledger     ${t.balanceChecked - t.balanceMismatches}/${t.balanceChecked} traders' balances equal their ledger`,
    );
  }
  lines.push(
    `errors       disconnects ${r.errors.disconnects}, subscribe failures ${r.errors.subscribeFailures}, connect failures ${r.errors.connectFailures}, negative latencies ${r.errors.clockSkew}`,
  );
  if (r.sample) {
    const s = r.sample;
    const v = s.violations;
    lines.push(
      `sample       ${s.connected}/${s.clients} socket.io-client sockets, ${s.ticks} ticks checked: ${v.backwards} out of order, ${v.gaps} gaps (${v.missing} ticks missing), ${s.disconnects} disconnects, ${s.subscribeFailures} subscribe failures${Object.keys(s.failures).length ? `: ${reasons(s.failures)}` : ''}`,
    );
  }
  if (r.clock)
    lines.push(
      `clock        gateway − this host ${f(r.clock.offsetMs, 1)} ms (±${f(r.clock.rttMs / 2, 1)} ms), ${r.clock.applied ? 'applied to latencies' : 'not applied (loopback: one clock)'}`,
    );
  for (const s of r.server) {
    const parts = [
      s.cpuPct !== null ? `CPU ${f(s.cpuPct, 0)}% of one core` : null,
      s.eventLoopP99MaxMs !== null
        ? `event-loop p99 up to ${f(s.eventLoopP99MaxMs, 1)} ms${s.eventLoopMaxMs !== null ? `, longest ${f(s.eventLoopMaxMs, 0)} ms` : ''} (prom-client's, its 10 ms sampling interval included)`
        : null,
      s.socketsMax !== null ? `sockets up to ${s.socketsMax}` : null,
      s.deliveriesPerSec !== null ? `${f(s.deliveriesPerSec, 0)} deliveries/s` : null,
      s.heapPerConnKiB !== null ? `heap ${f(s.heapPerConnKiB, 1)} KiB/conn (idle lows)` : null,
      s.loss !== null ? `ticks delivered but not received ${s.loss}` : null,
    ].filter(Boolean);
    lines.push(
      `server       ${s.url}${s.role ? ` (${s.role})` : ''}: ${parts.join('; ') || 'no figures'} [${s.readings} readings]`,
    );
    if (s.note) lines.push(`  note       ${s.note}`);
  }
  const p = r.loadProcess;
  lines.push(
    `load process CPU ${f(p.cpuSec)} s (${f(p.cpuPctOfOneCore, 0)}% of one core), RSS ${f(p.rssMb, 0)} MiB, event-loop delay p99 ${f(p.eventLoopP99Ms)} ms`,
  );
  for (const w of r.warnings) lines.push(`warning      ${w}`);
  return lines.join('\n');
}
