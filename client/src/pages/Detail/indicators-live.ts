/**
 * Chart indicators computed incrementally on the live stream. Candles come as a whole history
 * (`reset`) and then as updates of the newest bar: the same time (the bar changed) or a later one
 * (a new bar). Each indicator is a small state machine over the bars before the newest one (the
 * committed bars): the newest bar's value is computed from that state and the bar alone, and the
 * bar is folded into the state only when a later bar arrives. An update is O(1) (amortised; the
 * stochastic's window high and low use monotonic queues), never a pass over the series, and
 * updating the same bar many times leaves the state as one update does.
 *
 * Definitions follow the usual ones (TradingView, TA-Lib, and `technicalindicators`, whose batch
 * results the tests compare against):
 * - SMA: the mean of the last `period` closes.
 * - EMA: seeded with the SMA of the first `period` closes, then α = 2 / (period + 1).
 * - Bollinger: the SMA ± `multiplier` population standard deviations (divided by `period`).
 * - RSI: Wilder's smoothing of gains and losses (seeded with their mean over the first `period`
 *   changes); 100 when there was no loss, 0 when there was no gain.
 * - MACD (fast, slow, signal): EMA(fast) − EMA(slow); the signal is the EMA(signal) of that line,
 *   the histogram the line less the signal.
 * - Stochastic (k, d): %K = 100 · (close − lowest low) / (highest high − lowest low) over `k` bars
 *   (0 when the window is flat), %D the SMA(d) of %K.
 * A value is null until its window is full.
 */

export interface IndicatorBar {
  time: number;
  high: number;
  low: number;
  close: number;
}

/** One indicator over its input: the value the newest input would give, and folding it in. */
interface Machine<I, O> {
  peek(input: I): O | null;
  commit(input: I): void;
}

/** The mean and population standard deviation of a sliding window, in amortised O(1). */
class WindowStats implements Machine<number, { mean: number; sd: number }> {
  private readonly ring: number[] = [];
  private head = 0;
  /** Sums of (x − shift) and (x − shift)² over the committed window: exact near the shift. */
  private shift = 0;
  private s1 = 0;
  private s2 = 0;
  private sinceRebase = 0;

  constructor(private readonly period: number) {}

  /** The committed window holds the `period − 1` closes before the newest. */
  private get size() {
    return this.ring.length;
  }

  peek(x: number) {
    if (this.size < this.period - 1) return null;
    const d = x - this.shift;
    const m1 = (this.s1 + d) / this.period;
    const variance = (this.s2 + d * d) / this.period - m1 * m1;
    return { mean: this.shift + m1, sd: Math.sqrt(Math.max(0, variance)) };
  }

  commit(x: number) {
    const keep = this.period - 1;
    if (keep === 0) return;
    if (this.size === 0) this.shift = x;
    const d = x - this.shift;
    if (this.size < keep) this.ring.push(x);
    else {
      const out = this.ring[this.head]! - this.shift;
      this.ring[this.head] = x;
      this.head = (this.head + 1) % keep;
      this.s1 -= out;
      this.s2 -= out * out;
    }
    this.s1 += d;
    this.s2 += d * d;
    // Now and then the sums start again around the window's mean: no drift, no cancellation.
    if (++this.sinceRebase >= keep) this.rebase();
  }

  private rebase() {
    this.sinceRebase = 0;
    let sum = 0;
    for (const v of this.ring) sum += v;
    this.shift = sum / this.size;
    this.s1 = 0;
    this.s2 = 0;
    for (const v of this.ring) {
      this.s1 += v - this.shift;
      this.s2 += (v - this.shift) ** 2;
    }
  }
}

class Sma implements Machine<number, number> {
  private readonly stats: WindowStats;
  constructor(period: number) {
    this.stats = new WindowStats(period);
  }
  peek(x: number) {
    return this.stats.peek(x)?.mean ?? null;
  }
  commit(x: number) {
    this.stats.commit(x);
  }
}

class Ema implements Machine<number, number> {
  private count = 0;
  private seed = 0;
  private last = 0;
  private readonly alpha: number;
  constructor(private readonly period: number) {
    this.alpha = 2 / (period + 1);
  }
  peek(x: number) {
    if (this.count < this.period - 1) return null;
    if (this.count === this.period - 1) return (this.seed + x) / this.period;
    return (x - this.last) * this.alpha + this.last;
  }
  commit(x: number) {
    const value = this.peek(x);
    if (value !== null) this.last = value;
    else this.seed += x;
    this.count++;
  }
}

/** Wilder's average of a non-negative input: the mean of the first `period`, then 1/period. */
class Wilder {
  private count = 0;
  private sum = 0;
  private last = 0;
  constructor(private readonly period: number) {}
  peek(x: number) {
    if (this.count < this.period - 1) return null;
    if (this.count === this.period - 1) return (this.sum + x) / this.period;
    return (this.last * (this.period - 1) + x) / this.period;
  }
  commit(x: number) {
    const value = this.peek(x);
    if (value !== null) this.last = value;
    else this.sum += x;
    this.count++;
  }
}

class Rsi implements Machine<number, number> {
  private prev: number | null = null;
  private readonly gain: Wilder;
  private readonly loss: Wilder;
  constructor(period: number) {
    this.gain = new Wilder(period);
    this.loss = new Wilder(period);
  }
  peek(x: number) {
    if (this.prev === null) return null;
    const change = x - this.prev;
    const gain = this.gain.peek(Math.max(change, 0));
    const loss = this.loss.peek(Math.max(-change, 0));
    if (gain === null || loss === null) return null;
    return rsiOf(gain, loss);
  }
  commit(x: number) {
    if (this.prev !== null) {
      const change = x - this.prev;
      this.gain.commit(Math.max(change, 0));
      this.loss.commit(Math.max(-change, 0));
    }
    this.prev = x;
  }
}

export const rsiOf = (avgGain: number, avgLoss: number) =>
  avgLoss === 0 ? 100 : avgGain === 0 ? 0 : 100 - 100 / (1 + avgGain / avgLoss);

export interface MacdPoint {
  macd: number;
  signal: number | null;
  histogram: number | null;
}

class Macd implements Machine<number, MacdPoint> {
  private readonly fast: Ema;
  private readonly slow: Ema;
  private readonly signal: Ema;
  constructor(fast: number, slow: number, signal: number) {
    this.fast = new Ema(fast);
    this.slow = new Ema(slow);
    this.signal = new Ema(signal);
  }
  private line(x: number) {
    const fast = this.fast.peek(x);
    const slow = this.slow.peek(x);
    return fast === null || slow === null ? null : fast - slow;
  }
  peek(x: number) {
    const macd = this.line(x);
    if (macd === null) return null;
    const signal = this.signal.peek(macd);
    return { macd, signal, histogram: signal === null ? null : macd - signal };
  }
  commit(x: number) {
    const macd = this.line(x);
    if (macd !== null) this.signal.commit(macd);
    this.fast.commit(x);
    this.slow.commit(x);
  }
}

/** The extreme of the last `keep` committed values: a monotonic queue (amortised O(1)). */
class WindowExtreme {
  private values: number[] = [];
  private indexes: number[] = [];
  private start = 0;
  private count = 0;
  constructor(
    private readonly keep: number,
    /** True when `a` beats `b` (a > b for the highest). */
    private readonly beats: (a: number, b: number) => boolean,
  ) {}
  /** The extreme of the committed window and `x`. */
  with(x: number) {
    if (this.start >= this.values.length) return x;
    const best = this.values[this.start]!;
    return this.beats(x, best) ? x : best;
  }
  commit(x: number) {
    const i = this.count++;
    while (this.values.length > this.start && !this.beats(this.values.at(-1)!, x)) {
      this.values.pop();
      this.indexes.pop();
    }
    this.values.push(x);
    this.indexes.push(i);
    while (this.indexes[this.start]! <= i - this.keep) this.start++;
    // Drop the consumed front now and then, so the arrays stay about `keep` long.
    if (this.start > 64 && this.start * 2 > this.values.length) {
      this.values = this.values.slice(this.start);
      this.indexes = this.indexes.slice(this.start);
      this.start = 0;
    }
  }
}

export interface StochPoint {
  k: number;
  d: number | null;
}

class Stochastic implements Machine<IndicatorBar, StochPoint> {
  private readonly high: WindowExtreme;
  private readonly low: WindowExtreme;
  private readonly d: Sma;
  private count = 0;
  constructor(
    private readonly period: number,
    smoothing: number,
  ) {
    this.high = new WindowExtreme(period - 1, (a, b) => a > b);
    this.low = new WindowExtreme(period - 1, (a, b) => a < b);
    this.d = new Sma(smoothing);
  }
  private percentK(bar: IndicatorBar) {
    if (this.count < this.period - 1) return null;
    const low = this.low.with(bar.low);
    const k = ((bar.close - low) / (this.high.with(bar.high) - low)) * 100;
    return Number.isFinite(k) ? k : 0;
  }
  peek(bar: IndicatorBar) {
    const k = this.percentK(bar);
    return k === null ? null : { k, d: this.d.peek(k) };
  }
  commit(bar: IndicatorBar) {
    const k = this.percentK(bar);
    if (k !== null) this.d.commit(k);
    this.high.commit(bar.high);
    this.low.commit(bar.low);
    this.count++;
  }
}

class BollingerMachine implements Machine<
  number,
  { middle: number; upper: number; lower: number }
> {
  private readonly stats: WindowStats;
  constructor(
    period: number,
    private readonly multiplier: number,
  ) {
    this.stats = new WindowStats(period);
  }
  peek(x: number) {
    const s = this.stats.peek(x);
    if (!s) return null;
    const spread = this.multiplier * s.sd;
    return { middle: s.mean, upper: s.mean + spread, lower: s.mean - spread };
  }
  commit(x: number) {
    this.stats.commit(x);
  }
}

/**
 * An indicator on the live candles: `reset` with the history gives a value per bar; `update`
 * with the newest bar (changed or new) gives its value. A bar older than the newest is ignored
 * (its value is null).
 */
export class LiveIndicator<I, O> {
  private machine: Machine<I, O>;
  private pending: { time: number; input: I } | null = null;

  constructor(
    private readonly make: () => Machine<I, O>,
    private readonly input: (bar: IndicatorBar) => I,
  ) {
    this.machine = make();
  }

  reset(bars: readonly IndicatorBar[]): (O | null)[] {
    this.machine = this.make();
    this.pending = null;
    return bars.map((bar) => this.update(bar));
  }

  update(bar: IndicatorBar): O | null {
    const pending = this.pending;
    if (pending && bar.time < pending.time) return null;
    if (pending && bar.time > pending.time) this.machine.commit(pending.input);
    const input = this.input(bar);
    this.pending = { time: bar.time, input };
    return this.machine.peek(input);
  }
}

const close = (bar: IndicatorBar) => bar.close;
const whole = (bar: IndicatorBar) => bar;

export const liveSma = (period: number) => new LiveIndicator(() => new Sma(period), close);
export const liveEma = (period: number) => new LiveIndicator(() => new Ema(period), close);
export const liveBollinger = (period: number, multiplier: number) =>
  new LiveIndicator(() => new BollingerMachine(period, multiplier), close);
export const liveRsi = (period: number) => new LiveIndicator(() => new Rsi(period), close);
export const liveMacd = (fast: number, slow: number, signal: number) =>
  new LiveIndicator(() => new Macd(fast, slow, signal), close);
export const liveStochastic = (period: number, smoothing: number) =>
  new LiveIndicator(() => new Stochastic(period, smoothing), whole);
