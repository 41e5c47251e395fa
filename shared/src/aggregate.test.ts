import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { intervalMs, intervals } from './product';
import {
  aggregateTicks,
  applyTick,
  bucketStart,
  mergeCandles,
  presentCandle,
  presentStats,
  type CandleUnits,
  type TapeTick,
} from './aggregate';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const ivs = intervals.map((name) => intervalMs[name]);

/** Random gaps: same-ms ticks, sub-second to minutes, and gaps longer than any interval. */
const gap = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 10, arbitrary: fc.integer({ min: 1, max: 5_000 }) },
  { weight: 4, arbitrary: fc.integer({ min: 5_000, max: 20 * MINUTE }) },
  { weight: 2, arbitrary: fc.integer({ min: HOUR, max: 30 * HOUR }) },
);

/** Time-ordered tick streams, often spanning more than 24 h, some starting before 1970. */
const tickStream: fc.Arbitrary<TapeTick[]> = fc
  .record({
    start: fc.oneof(
      fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
      fc.integer({ min: -10 * 24 * HOUR, max: 10 * 24 * HOUR }),
    ),
    steps: fc.array(
      fc.record({
        gap,
        price: fc.integer({ min: 1, max: 1_000_000_000 }),
        qty: fc.integer({ min: 0, max: 10_000 }),
      }),
      { maxLength: 150 },
    ),
  })
  .map(({ start, steps }) => {
    let ts = start;
    return steps.map(({ gap: g, price, qty }) => {
      ts += g;
      return { ts, price, qty };
    });
  });

/** Brute-force candles: group by floor(ts / interval), recompute each bucket from its ticks. */
function bruteCandles(ticks: readonly TapeTick[], iv: number): CandleUnits[] {
  const groups = new Map<number, TapeTick[]>();
  for (const k of ticks) {
    const t = Math.floor(k.ts / iv) * iv;
    const list = groups.get(t) ?? [];
    list.push(k);
    groups.set(t, list);
  }
  return [...groups.keys()]
    .sort((x, y) => x - y)
    .map((t) => {
      const list = groups.get(t)!;
      const prices = list.map((k) => k.price);
      return {
        t,
        o: list[0]!.price,
        h: Math.max(...prices),
        l: Math.min(...prices),
        c: list[list.length - 1]!.price,
        v: list.reduce((s, k) => s + k.qty, 0),
        a: list.reduce((s, k) => s + BigInt(k.price) * BigInt(k.qty), 0n),
        n: list.length,
      };
    });
}

/** The client's way: fold applyTick over the stream, collecting closed candles. */
function foldLive(ticks: readonly TapeTick[], iv: number): CandleUnits[] {
  const out: CandleUnits[] = [];
  let current: CandleUnits | null = null;
  for (const k of ticks) {
    const { candle, closed } = applyTick(current, k, iv);
    if (closed) out.push(closed);
    current = candle;
  }
  if (current) out.push(current);
  return out;
}

describe('bucketStart', () => {
  it('floors to UTC-aligned buckets', () => {
    const ts = Date.UTC(2024, 2, 10, 13, 47, 31, 123);
    expect(bucketStart(ts, intervalMs['1m'])).toBe(Date.UTC(2024, 2, 10, 13, 47));
    expect(bucketStart(ts, intervalMs['5m'])).toBe(Date.UTC(2024, 2, 10, 13, 45));
    expect(bucketStart(ts, intervalMs['15m'])).toBe(Date.UTC(2024, 2, 10, 13, 45));
    expect(bucketStart(ts, intervalMs['1h'])).toBe(Date.UTC(2024, 2, 10, 13));
    expect(bucketStart(ts, intervalMs['4h'])).toBe(Date.UTC(2024, 2, 10, 12));
    expect(bucketStart(ts, intervalMs['1d'])).toBe(Date.UTC(2024, 2, 10));
    expect(bucketStart(Date.UTC(2024, 2, 10), intervalMs['1d'])).toBe(Date.UTC(2024, 2, 10));
  });

  it('floors negative times down, never toward zero', () => {
    expect(bucketStart(-1, MINUTE)).toBe(-MINUTE);
    expect(bucketStart(-MINUTE, MINUTE)).toBe(-MINUTE);
    expect(bucketStart(-MINUTE - 1, MINUTE)).toBe(-2 * MINUTE);
    expect(Object.is(bucketStart(0, MINUTE), 0)).toBe(true);
  });

  it('is the largest multiple ≤ ts, for any safe ts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Number.MIN_SAFE_INTEGER + HOUR * 24, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom(...ivs, 1, 7, 1000),
        (ts, iv) => {
          const b = bucketStart(ts, iv);
          expect(b % iv === 0).toBe(true);
          expect(b <= ts && ts - b < iv).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects a bad interval or ts', () => {
    expect(() => bucketStart(1, 0)).toThrow(RangeError);
    expect(() => bucketStart(1, -MINUTE)).toThrow(RangeError);
    expect(() => bucketStart(1, 1.5)).toThrow(RangeError);
    expect(() => bucketStart(Number.NaN, MINUTE)).toThrow(RangeError);
    expect(() => bucketStart(1.5, MINUTE)).toThrow(RangeError);
  });
});

describe('aggregateTicks / applyTick / mergeCandles (property-based)', () => {
  it('aggregateTicks equals a brute-force recount, for every interval', () => {
    fc.assert(
      fc.property(tickStream, (ticks) => {
        for (const iv of ivs) expect(aggregateTicks(ticks, iv)).toEqual(bruteCandles(ticks, iv));
      }),
      { numRuns: 150 },
    );
  });

  it('folding applyTick over the stream gives the same candles', () => {
    fc.assert(
      fc.property(tickStream, (ticks) => {
        for (const iv of ivs) expect(foldLive(ticks, iv)).toEqual(aggregateTicks(ticks, iv));
      }),
      { numRuns: 150 },
    );
  });

  it('mergeCandles of finer candles equals aggregateTicks at the coarser interval', () => {
    fc.assert(
      fc.property(tickStream, (ticks) => {
        for (const fine of ivs) {
          const fineCandles = aggregateTicks(ticks, fine);
          for (const coarse of ivs.filter((x) => x >= fine)) {
            expect(mergeCandles(fineCandles, coarse)).toEqual(aggregateTicks(ticks, coarse));
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('applyTick', () => {
  const t0 = Date.UTC(2024, 0, 1, 10, 0);

  it('starts, grows and closes the live candle', () => {
    const a = applyTick(null, { ts: t0 + 5, price: 100, qty: 2 }, MINUTE);
    expect(a).toEqual({
      candle: { t: t0, o: 100, h: 100, l: 100, c: 100, v: 2, a: 200n, n: 1 },
      closed: null,
    });
    const b = applyTick(a.candle, { ts: t0 + 59_999, price: 90, qty: 1 }, MINUTE);
    expect(b.closed).toBeNull();
    expect(b.candle).toEqual({ t: t0, o: 100, h: 100, l: 90, c: 90, v: 3, a: 290n, n: 2 });
    expect(a.candle.n).toBe(1); // not mutated
    const c = applyTick(b.candle, { ts: t0 + 3 * MINUTE, price: 95, qty: 0 }, MINUTE);
    expect(c.closed).toBe(b.candle);
    expect(c.candle).toEqual({ t: t0 + 3 * MINUTE, o: 95, h: 95, l: 95, c: 95, v: 0, a: 0n, n: 1 });
  });

  it('folds a slightly older tick of the same bucket and ignores one from an older bucket', () => {
    const a = applyTick(null, { ts: t0 + 30_000, price: 100, qty: 1 }, MINUTE).candle;
    const b = applyTick(a, { ts: t0 + 10_000, price: 101, qty: 1 }, MINUTE);
    expect(b.candle.c).toBe(101);
    expect(b.candle.n).toBe(2);
    const stale = applyTick(b.candle, { ts: t0 - 1, price: 1, qty: 1 }, MINUTE);
    expect(stale).toEqual({ candle: b.candle, closed: null });
    const ticks = [
      { ts: t0 + 30_000, price: 100, qty: 1 },
      { ts: t0 - 1, price: 1, qty: 1 },
    ];
    expect(aggregateTicks(ticks, MINUTE)).toEqual([a]);
  });

  it('gives no candles for no ticks', () => {
    expect(aggregateTicks([], MINUTE)).toEqual([]);
    expect(mergeCandles([], HOUR)).toEqual([]);
  });
});

describe('mergeCandles', () => {
  it('refuses candles out of order or duplicated', () => {
    const c: CandleUnits = { t: 0, o: 1, h: 1, l: 1, c: 1, v: 1, a: 1n, n: 1 };
    expect(() => mergeCandles([c, c], HOUR)).toThrow(RangeError);
    expect(() => mergeCandles([{ ...c, t: MINUTE }, c], HOUR)).toThrow(RangeError);
  });
});

describe('presentCandle / presentStats', () => {
  it('presents a candle in wire form', () => {
    const c: CandleUnits = {
      t: 60_000,
      o: 6701235,
      h: 6702000,
      l: 6700005,
      c: 6701000,
      v: 12345,
      a: 0n,
      n: 3,
    };
    expect(presentCandle(c, 2, '0.0001')).toEqual({
      t: 60_000,
      o: '67012.35',
      h: '67020.00',
      l: '67000.05',
      c: '67010.00',
      v: '1.2345',
    });
  });

  it('presents stats in wire form', () => {
    const s = {
      open: 20000,
      high: 20500,
      low: 19000,
      last: 20201,
      volume: 3,
      amount: 60501n,
      count: 3,
    };
    expect(presentStats(s, 2, '0.01')).toEqual({
      open: '200.00',
      high: '205.00',
      low: '190.00',
      last: '202.01',
      change: '2.01',
      changePct: '1.01',
      volume: '0.03',
      amount: '6.05',
    });
    expect(presentStats({ ...s, last: 19995 }, 2, '0.01')).toMatchObject({
      change: '-0.05',
      changePct: '-0.03',
    });
  });

  it('presents empty stats with the fallback price or zero', () => {
    expect(presentStats(null, 2, '0.0001', 6701235)).toEqual({
      open: '67012.35',
      high: '67012.35',
      low: '67012.35',
      last: '67012.35',
      change: '0.00',
      changePct: '0.00',
      volume: '0.0000',
      amount: '0.00',
    });
    expect(presentStats(null, 3, '1')).toEqual({
      open: '0.000',
      high: '0.000',
      low: '0.000',
      last: '0.000',
      change: '0.000',
      changePct: '0.00',
      volume: '0',
      amount: '0.00',
    });
  });
});
