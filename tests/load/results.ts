import {
  build,
  decodeFromCompressedBase64,
  encodeIntoCompressedBase64,
  type Histogram,
} from 'hdr-histogram-js';
import type { Scenario } from './scenario';
import type { SampleReport } from './sample';
import type { ServerFigures, TargetSeries } from './server-metrics';

/**
 * What one load process measured, in a form that merges: counters add, histograms add (never
 * percentiles averaged), silences take the worst. `--json` writes these for every process;
 * `load:merge` and `--processes` combine them.
 */

/** Latency histograms record microseconds (integers), so sub-millisecond figures survive. */
export function newHistogram(): Histogram {
  return build({ lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3, autoResize: true });
}

export const histogramNames = [
  'tick', // sim publish → receipt, every delivery, steady window
  'first', // per tick, its earliest receipt in this process
  'snapshot',
  'connect', // from the planned slot
  'order', // POST /api/orders sent → the order's first `order` event
  'balance', // POST /api/orders sent → the next `balance` event
] as const;
export type HistogramName = (typeof histogramNames)[number];

export const encodeHistogram = (h: Histogram): string => encodeIntoCompressedBase64(h);
export function decodeHistogram(text: string): Histogram {
  const h = newHistogram();
  if (text) h.add(decodeFromCompressedBase64(text));
  return h;
}

export interface Counters {
  planned: number;
  connected: number;
  failed: number;
  /** Connects this tool gave up itself (the run's end, a ramp-down): not failures. */
  abandoned: number;
  subOk: number;
  subFailed: number;
  disconnects: number;
  /** Closes the plan asked for (ramp-down, churn, storms). */
  plannedCloses: number;
  /** Arrivals (open model) started, and those dropped because their phase was at its cap. */
  arrivals: number;
  droppedArrivals: number;
  /**
   * The most light clients connected at once. Merged, the processes' peaks add: an upper bound
   * of the run's (they need not have peaked together).
   */
  peakConcurrent: number;
  skew: number;
  ticks: number;
  snapshots: number;
  initialTicks: number;
  steadyTicks: number;
  steadySnapshots: number;
  traders: number;
  tradersReady: number;
  orders: number;
  ordersOk: number;
  ordersFailed: number;
  orderEventsMissing: number;
  balanceChecked: number;
  balanceMismatches: number;
}

export const zeroCounters = (): Counters => ({
  planned: 0,
  connected: 0,
  failed: 0,
  abandoned: 0,
  subOk: 0,
  subFailed: 0,
  disconnects: 0,
  plannedCloses: 0,
  arrivals: 0,
  droppedArrivals: 0,
  peakConcurrent: 0,
  skew: 0,
  ticks: 0,
  snapshots: 0,
  initialTicks: 0,
  steadyTicks: 0,
  steadySnapshots: 0,
  traders: 0,
  tradersReady: 0,
  orders: 0,
  ordersOk: 0,
  ordersFailed: 0,
  orderEventsMissing: 0,
  balanceChecked: 0,
  balanceMismatches: 0,
});

/** Per channel: the longest time without a new item (receipt clock), and how many came. */
export interface Silence {
  longestMs: number;
  items: number;
  spanMs: number;
}

/** One second of the run in one process. */
export interface SecondRow {
  t: number;
  connected: number;
  ticks: number;
  snapshots: number;
  /** Orders placed so far (cumulative). */
  orders: number;
  /** This process's tick latency p99 over that second, ms (not mergeable: for plots). */
  p99: number | null;
  max: number | null;
}

export interface ProcessResult {
  pid: number;
  host: string;
  index: number;
  startedAt: number;
  wallSec: number;
  steady: boolean;
  windowSec: number;
  counters: Counters;
  /** Reasons → counts. */
  connectFailures: Record<string, number>;
  subscribeErrors: Record<string, number>;
  orderErrors: Record<string, number>;
  histograms: Record<HistogramName, string>;
  silences: Record<string, Silence>;
  series: SecondRow[];
  sample: SampleReport | null;
  clock: { offsetMs: number; rttMs: number; applied: boolean } | null;
  loadProcess: { cpuSec: number; cpuPctOfOneCore: number; rssMb: number; eventLoopP99Ms: number };
  warnings: string[];
}

export interface LoadDocument {
  format: 'tradeapp-load/1';
  createdAt: string;
  /** Never holds the operator token (it comes from the environment). */
  scenario: Scenario;
  /**
   * The clients the run planned at its peak: its scenario's, or after a merge the sum of every
   * part's (each host ran the whole scenario). Absent from older documents: the scenario's then.
   */
  clients?: number;
  processes: ProcessResult[];
  server: ServerFigures[];
  /** Every metrics reading (once a second), ms from the run's start, per target. */
  serverReadings: TargetSeries[];
}

const addRecord = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
};

export interface Merged {
  processes: number;
  wallSec: number;
  steady: boolean;
  windowSec: number;
  counters: Counters;
  connectFailures: Record<string, number>;
  subscribeErrors: Record<string, number>;
  orderErrors: Record<string, number>;
  histograms: Record<HistogramName, Histogram>;
  silences: Record<string, Silence>;
  sample: SampleReport | null;
  clock: ProcessResult['clock'];
  loadProcess: ProcessResult['loadProcess'];
  warnings: string[];
}

/** Combines processes (of one run, or of runs on several hosts at the same time). */
export function mergeResults(results: ProcessResult[]): Merged {
  const counters = zeroCounters();
  const m: Merged = {
    processes: results.length,
    wallSec: Math.max(0, ...results.map((r) => r.wallSec)),
    steady: results.every((r) => r.steady),
    windowSec: Math.min(...results.map((r) => r.windowSec)),
    counters,
    connectFailures: {},
    subscribeErrors: {},
    orderErrors: {},
    histograms: Object.fromEntries(histogramNames.map((n) => [n, newHistogram()])) as Record<
      HistogramName,
      Histogram
    >,
    silences: {},
    sample: null,
    clock: results[0]?.clock ?? null,
    loadProcess: { cpuSec: 0, cpuPctOfOneCore: 0, rssMb: 0, eventLoopP99Ms: 0 },
    warnings: [],
  };
  for (const r of results) {
    for (const k of Object.keys(counters) as (keyof Counters)[]) counters[k] += r.counters[k];
    addRecord(m.connectFailures, r.connectFailures);
    addRecord(m.subscribeErrors, r.subscribeErrors);
    addRecord(m.orderErrors, r.orderErrors);
    for (const n of histogramNames) m.histograms[n].add(decodeHistogram(r.histograms[n] ?? ''));
    for (const [ch, s] of Object.entries(r.silences)) {
      const was = m.silences[ch];
      // The worst silence any process saw; the item count of the process that saw most.
      m.silences[ch] = was
        ? {
            longestMs: Math.max(was.longestMs, s.longestMs),
            items: Math.max(was.items, s.items),
            spanMs: Math.max(was.spanMs, s.spanMs),
          }
        : { ...s };
    }
    if (r.sample) {
      const s = (m.sample ??= {
        clients: 0,
        connected: 0,
        subscribeFailures: 0,
        disconnects: 0,
        ticks: 0,
        snapshots: 0,
        violations: { backwards: 0, gaps: 0, missing: 0 },
        failures: {},
      });
      s.clients += r.sample.clients;
      s.connected += r.sample.connected;
      s.subscribeFailures += r.sample.subscribeFailures;
      s.disconnects += r.sample.disconnects;
      s.ticks += r.sample.ticks;
      s.snapshots += r.sample.snapshots;
      s.violations.backwards += r.sample.violations.backwards;
      s.violations.gaps += r.sample.violations.gaps;
      s.violations.missing += r.sample.violations.missing;
      addRecord(s.failures, r.sample.failures);
    }
    m.loadProcess.cpuSec += r.loadProcess.cpuSec;
    m.loadProcess.cpuPctOfOneCore += r.loadProcess.cpuPctOfOneCore;
    m.loadProcess.rssMb += r.loadProcess.rssMb;
    m.loadProcess.eventLoopP99Ms = Math.max(
      m.loadProcess.eventLoopP99Ms,
      r.loadProcess.eventLoopP99Ms,
    );
    for (const w of r.warnings) if (!m.warnings.includes(w)) m.warnings.push(w);
  }
  return m;
}
