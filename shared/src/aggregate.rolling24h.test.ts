import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  aggregateTicks,
  applyTick,
  bruteForceStats,
  Rolling24h,
  type CandleUnits,
  type TapeTick,
} from './aggregate';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const gap = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 10, arbitrary: fc.integer({ min: 1, max: 10_000 }) },
  { weight: 5, arbitrary: fc.integer({ min: 10_000, max: 30 * MINUTE }) },
  { weight: 2, arbitrary: fc.integer({ min: HOUR, max: 26 * HOUR }) },
);

/** Time-ordered ticks with, per tick, whether to query after it and how far past it `now` is. */
const scenario = fc
  .record({
    start: fc.oneof(
      fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
      fc.integer({ min: -3 * DAY, max: 3 * DAY }),
    ),
    steps: fc.array(
      fc.record({
        gap,
        price: fc.integer({ min: 1, max: 1_000_000_000 }),
        qty: fc.integer({ min: 0, max: 10_000 }),
        query: fc.option(
          fc.oneof(
            fc.integer({ min: 0, max: 2 * MINUTE }),
            fc.integer({ min: 23 * HOUR, max: 25 * HOUR }),
            fc.integer({ min: 0, max: 2 * DAY }),
          ),
          { freq: 4 },
        ),
      }),
      { maxLength: 150 },
    ),
  })
  .map(({ start, steps }) => {
    let ts = start;
    return steps.map(({ gap: g, price, qty, query }) => {
      ts += g;
      return { tick: { ts, price, qty }, query };
    });
  });

type Feed = (r: Rolling24h, tick: TapeTick, live: { candle: CandleUnits | null }) => void;

/** Feeds the ticks one by one; at each query point compares stats(now) to the brute force. */
function check(
  steps: { tick: TapeTick; query: number | null }[],
  feed: Feed,
  windowMinutes?: number,
) {
  const r = new Rolling24h(windowMinutes);
  const live = { candle: null as CandleUnits | null };
  const seen: TapeTick[] = [];
  for (const { tick, query } of steps) {
    feed(r, tick, live);
    seen.push(tick);
    if (query === null) continue;
    const now = tick.ts + query;
    expect(r.stats(now)).toEqual(bruteForceStats(seen, now, windowMinutes));
  }
}

const byTick: Feed = (r, tick) => r.applyTick(tick);
/** The simulator's way: push its live 1m candle again after every tick (replace semantics). */
const byLiveCandle: Feed = (r, tick, live) => {
  live.candle = applyTick(live.candle, tick, MINUTE).candle;
  r.pushCandle(live.candle);
};

describe('Rolling24h (property-based)', () => {
  it('fed tick by tick equals bruteForceStats at random now values', () => {
    fc.assert(
      fc.property(scenario, (steps) => check(steps, byTick)),
      { numRuns: 120 },
    );
  });

  it('fed the growing live 1m candle equals bruteForceStats', () => {
    fc.assert(
      fc.property(scenario, (steps) => check(steps, byLiveCandle)),
      { numRuns: 120 },
    );
  });

  it('fed finished 1m candles equals bruteForceStats', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 2 * DAY }), (steps, after) => {
        const ticks = steps.map((s) => s.tick);
        const r = new Rolling24h();
        for (const c of aggregateTicks(ticks, MINUTE)) r.pushCandle(c);
        const now = (ticks[ticks.length - 1]?.ts ?? 0) + after;
        expect(r.stats(now)).toEqual(bruteForceStats(ticks, now));
      }),
      { numRuns: 150 },
    );
  });

  it('fed ticks in any order equals fed aggregateTicks(ticks, 1m) (same stale rule)', () => {
    fc.assert(
      fc.property(
        scenario.chain((steps) => fc.shuffledSubarray(steps, { minLength: steps.length })),
        fc.integer({ min: 0, max: DAY }),
        (steps, after) => {
          const ticks = steps.map((s) => s.tick);
          const byTicks = new Rolling24h(60);
          for (const t of ticks) byTicks.applyTick(t);
          const byCandles = new Rolling24h(60);
          for (const c of aggregateTicks(ticks, MINUTE)) byCandles.pushCandle(c);
          const now = Math.max(0, ...ticks.map((t) => t.ts)) + after;
          expect(byTicks.stats(now)).toEqual(byCandles.stats(now));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('holds for short windows too (the ring wraps often)', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 90 }), (steps, w) => {
        check(steps, byTick, w);
        check(steps, byLiveCandle, w);
      }),
      { numRuns: 100 },
    );
  });
});

describe('Rolling24h window', () => {
  const now = Date.UTC(2024, 4, 1, 12, 30, 15, 500);
  const nowBucket = Date.UTC(2024, 4, 1, 12, 30);
  const first = nowBucket - 1439 * MINUTE; // oldest bucket inside
  const outside = nowBucket - 1440 * MINUTE; // newest bucket outside

  it('counts the bucket 1439 minutes back and not the one 1440 back', () => {
    const ticks: TapeTick[] = [
      { ts: outside, price: 1, qty: 1 },
      { ts: first - 1, price: 2, qty: 1 }, // last ms of the outside bucket
      { ts: first, price: 300, qty: 2 }, // first ms inside
      { ts: first + 59_999, price: 400, qty: 3 },
      { ts: nowBucket + 59_999, price: 350, qty: 4 }, // later in now's minute: still counts
    ];
    const expected = {
      open: 300,
      high: 400,
      low: 300,
      last: 350,
      volume: 9,
      amount: 300n * 2n + 400n * 3n + 350n * 4n,
      count: 3,
    };
    expect(bruteForceStats(ticks, now)).toEqual(expected);
    const byTicks = new Rolling24h();
    for (const t of ticks) byTicks.applyTick(t);
    expect(byTicks.stats(now)).toEqual(expected);
    const byCandles = new Rolling24h();
    for (const c of aggregateTicks(ticks, MINUTE)) byCandles.pushCandle(c);
    expect(byCandles.stats(now)).toEqual(expected);
    // Any now within the same minute sees the same window.
    expect(byCandles.stats(nowBucket)).toEqual(expected);
    expect(byCandles.stats(nowBucket + 59_999)).toEqual(expected);
    // One minute later the bucket 1439 back leaves too.
    expect(byCandles.stats(nowBucket + MINUTE)).toEqual({
      open: 350,
      high: 350,
      low: 350,
      last: 350,
      volume: 4,
      amount: 1400n,
      count: 1,
    });
    // A day and a minute later nothing is left.
    expect(byCandles.stats(nowBucket + 1440 * MINUTE)).toBeNull();
    expect(bruteForceStats(ticks, nowBucket + 1440 * MINUTE)).toBeNull();
  });

  it('is empty before anything arrives, and excludes candles after now', () => {
    const r = new Rolling24h();
    expect(r.stats(now)).toBeNull();
    r.applyTick({ ts: now + MINUTE, price: 5, qty: 1 });
    expect(r.stats(now)).toBeNull();
  });
});

describe('Rolling24h same-bucket semantics', () => {
  const t = Date.UTC(2024, 4, 1, 12, 0);
  const candle = (o: number, c: number, n: number): CandleUnits => ({
    t,
    o,
    h: Math.max(o, c),
    l: Math.min(o, c),
    c,
    v: n,
    a: BigInt(n),
    n,
  });

  it('pushCandle replaces a candle with the same t', () => {
    const r = new Rolling24h();
    r.pushCandle(candle(10, 11, 1));
    r.pushCandle(candle(10, 12, 2));
    r.pushCandle(candle(10, 9, 3));
    expect(r.stats(t)).toEqual({
      open: 10,
      high: 10,
      low: 9,
      last: 9,
      volume: 3,
      amount: 3n,
      count: 3,
    });
  });

  it('applyTick folds into a pushed candle of the same minute', () => {
    const r = new Rolling24h();
    r.pushCandle(candle(10, 11, 1));
    r.applyTick({ ts: t + 1000, price: 20, qty: 2 });
    expect(r.stats(t)).toEqual({
      open: 10,
      high: 20,
      low: 10,
      last: 20,
      volume: 3,
      amount: 41n,
      count: 2,
    });
  });

  it('ignores a tick older than the newest minute, and a candle a window older than its slot', () => {
    const r = new Rolling24h(10);
    r.applyTick({ ts: t + 5 * MINUTE, price: 7, qty: 1 });
    r.applyTick({ ts: t, price: 1, qty: 1 }); // stale: ignored
    expect(r.stats(t + 5 * MINUTE)).toMatchObject({ open: 7, count: 1 });
    r.pushCandle({ ...candle(3, 3, 1), t: t - 5 * MINUTE }); // same slot as t + 5 min: ignored
    expect(r.stats(t + 5 * MINUTE)).toMatchObject({ open: 7, count: 1 });
    r.pushCandle(candle(2, 2, 1)); // an older minute inside the window is accepted
    expect(r.stats(t + 5 * MINUTE)).toMatchObject({ open: 2, last: 7, count: 2 });
  });

  it('refuses a candle that does not start a minute and a bad window', () => {
    expect(() => new Rolling24h().pushCandle({ ...candle(1, 1, 1), t: t + 1 })).toThrow(RangeError);
    expect(() => new Rolling24h(0)).toThrow(RangeError);
    expect(() => new Rolling24h(1.5)).toThrow(RangeError);
  });
});
