/**
 * Candles and rolling 24h stats from the tape: one set of pure functions used by the simulator,
 * the server and the client (which builds its live candle from streamed ticks with the same
 * code). Prices are integer units, quantities integer lots, amounts BigInt (units × lots);
 * `presentStats` / `presentCandle` turn them into the decimal-string wire forms.
 *
 * Order: ticks are folded in the order given, which should be time order. Ticks with the same
 * ts, or a ts a little behind within the same bucket, fold in arrival order (the last one given
 * is the close). A tick whose bucket is older than the candle being built is stale and ignored,
 * by `applyTick` and therefore by `aggregateTicks` (so both always agree, in any order).
 */
import type { Stats24h } from './market/model';
import type { Candle } from './product';
import { amountToDecimal, changePct, lotsToDecimal, unitsToPrice } from './price';

/** One trade on the tape: `price` in units, `qty` in lots, `ts` epoch ms. */
export interface TapeTick {
  ts: number;
  price: number;
  qty: number;
}

/** A candle in units: `t` bucket start (epoch ms), `v` lots, `a` Σ price×qty, `n` tick count. */
export interface CandleUnits {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number /* lots */;
  a: bigint /* Σ price×qty in units×lots */;
  n: number /* tick count */;
}

/** Rolling-window figures in units; `open` is the first candle's o, `last` the last one's c. */
export interface Stats24hUnits {
  open: number;
  high: number;
  low: number;
  last: number;
  volume: number /* lots */;
  amount: bigint;
  count: number;
}

export const MINUTE_MS = 60_000;

function checkInterval(intervalMs: number): void {
  if (!Number.isSafeInteger(intervalMs) || intervalMs <= 0) {
    throw new RangeError(`interval must be a positive integer of ms: ${intervalMs}`);
  }
}

/**
 * Start of the bucket holding `ts`: the largest multiple of `intervalMs` ≤ ts. Epoch 0 is
 * midnight UTC, so buckets are UTC-aligned (1d at 00:00 UTC, 4h at 00, 04, … UTC). Exact for
 * any safe integer, negatives included.
 */
export function bucketStart(ts: number, intervalMs: number): number {
  checkInterval(intervalMs);
  if (!Number.isSafeInteger(ts)) throw new RangeError(`ts must be a safe integer: ${ts}`);
  const r = ts % intervalMs; // exact for integers; negative for negative ts
  return r < 0 ? ts - r - intervalMs : ts - r;
}

function candleFromTick(t: number, tick: TapeTick): CandleUnits {
  return {
    t,
    o: tick.price,
    h: tick.price,
    l: tick.price,
    c: tick.price,
    v: tick.qty,
    a: BigInt(tick.price) * BigInt(tick.qty),
    n: 1,
  };
}

function foldTick(c: CandleUnits, tick: TapeTick): CandleUnits {
  return {
    t: c.t,
    o: c.o,
    h: Math.max(c.h, tick.price),
    l: Math.min(c.l, tick.price),
    c: tick.price,
    v: c.v + tick.qty,
    a: c.a + BigInt(tick.price) * BigInt(tick.qty),
    n: c.n + 1,
  };
}

/** Folds `later` (a candle of the same or a later time) into `earlier`; keeps earlier's t. */
function foldCandle(earlier: CandleUnits, later: CandleUnits): CandleUnits {
  return {
    t: earlier.t,
    o: earlier.o,
    h: Math.max(earlier.h, later.h),
    l: Math.min(earlier.l, later.l),
    c: later.c,
    v: earlier.v + later.v,
    a: earlier.a + later.a,
    n: earlier.n + later.n,
  };
}

/**
 * The live candle: folds `tick` into `current` when it falls in current's bucket, or starts a new
 * candle and hands back `current` as `closed`. A tick from a bucket before current's is stale:
 * `{ candle: current, closed: null }` (nothing changes). Never mutates its arguments.
 */
export function applyTick(
  current: CandleUnits | null,
  tick: TapeTick,
  intervalMs: number,
): { candle: CandleUnits; closed: CandleUnits | null } {
  const t = bucketStart(tick.ts, intervalMs);
  if (current === null) return { candle: candleFromTick(t, tick), closed: null };
  if (t === current.t) return { candle: foldTick(current, tick), closed: null };
  if (t < current.t) return { candle: current, closed: null };
  return { candle: candleFromTick(t, tick), closed: current };
}

/** Candles of `intervalMs`, oldest first, one per non-empty bucket: the fold of `applyTick`. */
export function aggregateTicks(ticks: readonly TapeTick[], intervalMs: number): CandleUnits[] {
  checkInterval(intervalMs);
  const out: CandleUnits[] = [];
  let current: CandleUnits | null = null;
  for (const tick of ticks) {
    const step = applyTick(current, tick, intervalMs);
    if (step.closed) out.push(step.closed);
    current = step.candle;
  }
  if (current) out.push(current);
  return out;
}

/**
 * Rolls finer candles (oldest first, strictly increasing `t`) up to `intervalMs`, which must be a
 * multiple of their interval (every pair in `intervalMs` of product.ts is, upwards). Equals
 * aggregateTicks(ticks, intervalMs) when the candles are aggregateTicks(ticks, finer).
 * Throws RangeError when `t` does not increase.
 */
export function mergeCandles(candles: readonly CandleUnits[], intervalMs: number): CandleUnits[] {
  checkInterval(intervalMs);
  const out: CandleUnits[] = [];
  let current: CandleUnits | null = null;
  let previousT = -Infinity;
  for (const c of candles) {
    if (c.t <= previousT) {
      throw new RangeError(`candles must be in increasing time order: ${c.t} after ${previousT}`);
    }
    previousT = c.t;
    const t = bucketStart(c.t, intervalMs);
    if (current !== null && current.t === t) {
      current = foldCandle(current, c);
    } else {
      if (current !== null) out.push(current);
      current = { ...c, t };
    }
  }
  if (current) out.push(current);
  return out;
}

/**
 * Rolling stats over 1-minute candles. For `stats(now)` the window is the `windowMinutes`
 * one-minute buckets ending with the bucket of `now`: bucket starts in
 * [bucketStart(now, 1m) − (windowMinutes − 1) min, bucketStart(now, 1m)].
 *
 * Storage is a ring of `windowMinutes` slots (slot = minute index mod windowMinutes), so memory
 * is bounded and a newer bucket overwrites the one exactly a window older. Consequently
 * `stats(now)` is exact for `now` at or after the newest bucket received (the normal use: now is
 * the clock); for an earlier `now`, buckets evicted by newer ones are missing.
 *
 * Same-bucket semantics: `pushCandle` REPLACES a stored candle with the same `t` (the simulator
 * pushes its growing live 1m candle again and again). A pushed candle older than the one in its
 * slot (a window or more stale) is ignored. `applyTick` folds a tick into its minute's candle,
 * like the live-candle `applyTick`: a tick whose minute is before the newest minute seen is
 * stale and ignored, so feeding ticks equals pushing aggregateTicks(ticks, 1m) in any order.
 */
export class Rolling24h {
  readonly windowMinutes: number;
  private readonly slots: (CandleUnits | null)[];
  /** Start of the newest bucket received (by pushCandle or applyTick), or null. */
  private newest: number | null = null;

  constructor(windowMinutes = 1440) {
    if (!Number.isSafeInteger(windowMinutes) || windowMinutes <= 0) {
      throw new RangeError(`windowMinutes must be a positive integer: ${windowMinutes}`);
    }
    this.windowMinutes = windowMinutes;
    this.slots = new Array<CandleUnits | null>(windowMinutes).fill(null);
  }

  private slotOf(t: number): number {
    const w = this.windowMinutes;
    return (((t / MINUTE_MS) % w) + w) % w;
  }

  /** Stores a 1-minute candle (`t` must be minute-aligned); replaces one with the same `t`. */
  pushCandle(c: CandleUnits): void {
    if (bucketStart(c.t, MINUTE_MS) !== c.t) {
      throw new RangeError(`not a 1-minute bucket start: ${c.t}`);
    }
    const slot = this.slotOf(c.t);
    const held = this.slots[slot];
    if (held && held.t > c.t) return; // a window or more older than what the slot holds
    this.slots[slot] = c;
    if (this.newest === null || c.t > this.newest) this.newest = c.t;
  }

  /** Folds a tick into its minute's candle (see the class comment for stale ticks). */
  applyTick(tick: TapeTick): void {
    const t = bucketStart(tick.ts, MINUTE_MS);
    if (this.newest !== null && t < this.newest) return;
    const slot = this.slotOf(t);
    const held = this.slots[slot];
    this.slots[slot] = held && held.t === t ? foldTick(held, tick) : candleFromTick(t, tick);
    this.newest = t;
  }

  /** Figures over the window ending with now's minute; null when it holds no candle. */
  stats(now: number): Stats24hUnits | null {
    const end = bucketStart(now, MINUTE_MS);
    const start = end - (this.windowMinutes - 1) * MINUTE_MS;
    if (this.newest === null || this.newest < start) return null;
    const last = Math.min(end, this.newest);
    let s: Stats24hUnits | null = null;
    for (let t = start; t <= last; t += MINUTE_MS) {
      const c = this.slots[this.slotOf(t)];
      if (!c || c.t !== t) continue;
      if (s === null) {
        s = { open: c.o, high: c.h, low: c.l, last: c.c, volume: 0, amount: 0n, count: 0 };
      }
      if (c.h > s.high) s.high = c.h;
      if (c.l < s.low) s.low = c.l;
      s.volume += c.v;
      s.amount += c.a;
      s.count += c.n;
      s.last = c.c;
    }
    return s;
  }
}

/**
 * The obviously-correct recount for tests: every tick (in the order given, time order expected)
 * whose minute bucket lies in the window of `now` (see Rolling24h).
 */
export function bruteForceStats(
  ticks: readonly TapeTick[],
  now: number,
  windowMinutes = 1440,
): Stats24hUnits | null {
  const end = bucketStart(now, MINUTE_MS);
  const start = end - (windowMinutes - 1) * MINUTE_MS;
  const inside = ticks.filter((k) => {
    const t = bucketStart(k.ts, MINUTE_MS);
    return t >= start && t <= end;
  });
  const first = inside[0];
  const final = inside[inside.length - 1];
  if (first === undefined || final === undefined) return null;
  return {
    open: first.price,
    high: inside.reduce((m, k) => Math.max(m, k.price), first.price),
    low: inside.reduce((m, k) => Math.min(m, k.price), first.price),
    last: final.price,
    volume: inside.reduce((sum, k) => sum + k.qty, 0),
    amount: inside.reduce((sum, k) => sum + BigInt(k.price) * BigInt(k.qty), 0n),
    count: inside.length,
  };
}

/**
 * The wire form of the stats (market.ts): change = last − open as a price, changePct via
 * changePct(), volume in base units, amount in quote with 2 decimals rounded down. With no stats
 * every price field is `fallbackPrice` (units; e.g. the last known price) or zero, and change,
 * changePct, volume and amount are zero.
 */
export function presentStats(
  s: Stats24hUnits | null,
  precision: number,
  lotSize: string,
  fallbackPrice?: number,
): Stats24h {
  if (s === null) {
    const price = unitsToPrice(fallbackPrice ?? 0, precision);
    return {
      open: price,
      high: price,
      low: price,
      last: price,
      change: unitsToPrice(0, precision),
      changePct: '0.00',
      volume: lotsToDecimal(0, lotSize),
      amount: amountToDecimal(0n, precision, lotSize),
    };
  }
  return {
    open: unitsToPrice(s.open, precision),
    high: unitsToPrice(s.high, precision),
    low: unitsToPrice(s.low, precision),
    last: unitsToPrice(s.last, precision),
    change: unitsToPrice(s.last - s.open, precision),
    changePct: changePct(s.open, s.last),
    volume: lotsToDecimal(s.volume, lotSize),
    amount: amountToDecimal(s.amount, precision, lotSize),
  };
}

/** The wire form of a candle (product.ts): prices at `precision`, `v` in base units. */
export function presentCandle(c: CandleUnits, precision: number, lotSize: string): Candle {
  return {
    t: c.t,
    o: unitsToPrice(c.o, precision),
    h: unitsToPrice(c.h, precision),
    l: unitsToPrice(c.l, precision),
    c: unitsToPrice(c.c, precision),
    v: lotsToDecimal(c.v, lotSize),
  };
}
