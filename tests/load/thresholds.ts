/**
 * Pass/fail thresholds: `--fail-on 'p99<50ms,subscribeFailures=0,gaps=0'` (or `failOn` in a
 * scenario). Each is a figure of the report, a comparison and a number; durations take ms or s.
 * A run that breaks one exits 1 and names it with the figure and by how much.
 */

export type Comparison = '<' | '<=' | '=' | '>=' | '>';
export interface Threshold {
  text: string;
  figure: string;
  op: Comparison;
  /** Milliseconds for durations, percent for rates, else a plain number. */
  value: number;
  /** A default threshold (`withDefaults`), not one the caller gave. */
  byDefault?: boolean;
}

/** The figures a threshold may name, each read from the finished report's flat view. */
export const thresholdFigures = {
  p50: 'tick latency p50 (ms)',
  p90: 'tick latency p90 (ms)',
  p99: 'tick latency p99 (ms)',
  p999: 'tick latency p99.9 (ms)',
  max: 'tick latency max (ms)',
  firstP99: 'first-receipt tick latency p99 (ms)',
  connectP99: 'connect latency p99 from the planned slot (ms)',
  orderP99: 'order placed → `order` event p99 (ms)',
  balanceP99: 'order placed → `balance` event p99 (ms)',
  silence: 'longest silence of any channel (ms)',
  serverLoopMax: 'longest event-loop delay of any server read (ms)',
  connectFailures: 'connections that failed',
  connectFailureRate: 'connections that failed, in % of those that connected or failed',
  droppedArrivals: 'arrivals not started because their phase was at its cap (maxClients)',
  subscribeFailures: 'subscriptions refused',
  disconnects: 'connections the server dropped',
  gaps: 'sequence gaps seen by the sample sockets',
  backwards: 'ticks out of order at the sample sockets',
  sampleFailures: 'sample sockets that did not connect',
  orderFailures: 'orders refused or unanswered',
  balanceMismatches: 'traders whose balance differs from the ledger',
  loss: 'ticks the server counted as delivered but no client received',
} as const;
export type ThresholdFigure = keyof typeof thresholdFigures;

const RE = /^([A-Za-z0-9]+)\s*(<=|>=|<|>|=)\s*(-?\d+(?:\.\d+)?)\s*(ms|s|%)?$/;
/** Figures given in percent: `%` is optional after them, and allowed after no other. */
const PERCENT = new Set(['connectFailureRate']);

export function parseThresholds(spec: string): Threshold[] {
  return spec
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .map((text) => {
      const m = RE.exec(text);
      if (!m) throw new Error(`threshold "${text}": expected <figure><op><number>[ms|s|%]`);
      const figure = m[1]!;
      if (!(figure in thresholdFigures))
        throw new Error(
          `threshold "${text}": unknown figure ${figure} (one of ${Object.keys(thresholdFigures).join(', ')})`,
        );
      const unit = m[4];
      if (unit && (unit === '%') !== PERCENT.has(figure))
        throw new Error(
          `threshold "${text}": ${figure} is ${PERCENT.has(figure) ? 'a percentage' : 'not a percentage'}`,
        );
      const value = Number(m[3]) * (unit === 's' ? 1000 : 1);
      return { text, figure, op: m[2] as Comparison, value };
    });
}

/**
 * Always in force: a run in which any client failed to connect fails, whatever else it measured
 * (an nginx capped at 250 sockets, 750 of 1 000 refused, once passed). A threshold of the caller's
 * on either connect-failure figure replaces it (`connectFailureRate<1%` to tolerate a few).
 */
export const defaultThresholds = 'connectFailures=0';

/** The caller's thresholds (flags, scenario) and every default whose figures they leave alone. */
export function withDefaults(thresholds: Threshold[]): Threshold[] {
  const connectNamed = thresholds.some((t) => /^connectFailure/.test(t.figure));
  const defaults = parseThresholds(defaultThresholds)
    .filter((t) => !(connectNamed && /^connectFailure/.test(t.figure)))
    .map((t) => ({ ...t, byDefault: true }));
  return [...thresholds, ...defaults];
}

export interface Breach {
  threshold: Threshold;
  /** The figure, or null when the run did not measure it (which also breaks the threshold). */
  actual: number | null;
  message: string;
}

const holds = (a: number, op: Comparison, b: number) =>
  op === '<' ? a < b : op === '<=' ? a <= b : op === '=' ? a === b : op === '>=' ? a >= b : a > b;

/** Checks each threshold against the figures; returns the broken ones with a sentence each. */
export function checkThresholds(
  thresholds: Threshold[],
  figures: Partial<Record<string, number | null>>,
): Breach[] {
  const out: Breach[] = [];
  for (const t of thresholds) {
    const actual = figures[t.figure] ?? null;
    if (actual === null) {
      out.push({ threshold: t, actual, message: `${t.text}: not measured in this run` });
    } else if (!holds(actual, t.op, t.value)) {
      const by = Math.abs(actual - t.value);
      const unit = /p\d|P\d|max|Max|silence/.test(t.figure)
        ? ' ms'
        : PERCENT.has(t.figure)
          ? '%'
          : '';
      const f = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
      out.push({
        threshold: t,
        actual,
        message: `${t.text}${t.byDefault ? ' (default)' : ''} broken: ${t.figure} was ${f(actual)}${unit} (off by ${f(by)}${unit})`,
      });
    }
  }
  return out;
}
