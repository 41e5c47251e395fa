import { describe, expect, it } from 'vitest';
import {
  AverageGain,
  AverageLoss,
  BollingerBands,
  EMA,
  MACD,
  RSI,
  SMA,
  Stochastic,
} from 'technicalindicators';
import {
  liveBollinger,
  liveEma,
  liveMacd,
  liveRsi,
  liveSma,
  liveStochastic,
  rsiOf,
  type IndicatorBar,
  type LiveIndicator,
} from './indicators-live';

/**
 * The incremental indicators against the batch results of `technicalindicators` (a widely used
 * implementation), to 1e-9 relative: built the way the chart builds them (a reset with the first
 * bars, then updates, each bar's close arriving as several ticks before the next bar starts).
 */

/** A deterministic random walk (a linear congruential generator) with highs and lows. */
function walk(count: number, seed = 7, start = 100): IndicatorBar[] {
  let x = seed;
  const random = () => (x = (x * 48_271) % 2_147_483_647) / 2_147_483_647;
  let last = start;
  return Array.from({ length: count }, (_, i) => {
    const open = last;
    const close = open * (1 + (random() - 0.5) * 0.02);
    last = close;
    const high = Math.max(open, close) * (1 + random() * 0.005);
    const low = Math.min(open, close) * (1 - random() * 0.005);
    return { time: 1_700_000_000 + i * 60, high, low, close };
  });
}

/** A fixed small series (closes of a textbook RSI example) with made-up highs and lows. */
const closes14 = [
  44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.1, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28,
  46.28, 46.0, 46.03, 46.41, 46.22, 45.64, 46.21, 46.25, 45.71, 46.45, 45.78, 45.35, 44.03, 44.18,
  44.22, 44.57, 43.42, 42.66, 43.13,
];
const fixed: IndicatorBar[] = closes14.map((close, i) => ({
  time: i,
  close,
  high: close + 0.25 + (i % 3) * 0.1,
  low: close - 0.2 - (i % 4) * 0.05,
}));

/**
 * The indicator's value per bar: a reset with the first `split` bars, then each later bar as it
 * arrives live: three ticks moving towards its close (the same time), then its close.
 */
function live<O>(indicator: LiveIndicator<unknown, O>, bars: IndicatorBar[], split: number) {
  const out = indicator.reset(bars.slice(0, split));
  for (const bar of bars.slice(split)) {
    for (const f of [0.3, -0.7, 1.2])
      indicator.update({ ...bar, close: bar.close * (1 + f / 100), high: bar.high * 1.02 });
    out.push(indicator.update(bar));
  }
  return out;
}

/** The reference's results sit at the end: a batch of `n` values for the last `n` bars. */
function aligned<T>(reference: T[], length: number): (T | null)[] {
  return [...Array<null>(length - reference.length).fill(null), ...reference];
}

function expectClose(actual: number | null | undefined, expected: number | null | undefined) {
  if (expected === null || expected === undefined) {
    expect(actual ?? null).toBeNull();
    return;
  }
  expect(actual).not.toBeNull();
  const scale = Math.max(1, Math.abs(expected));
  expect(Math.abs(actual! - expected) / scale).toBeLessThan(1e-9);
}

const series = [
  ['400 generated bars', walk(400), [0, 1, 60, 399]],
  ['a random walk at 67 000', walk(300, 11, 67_000), [26, 200]],
  ['the fixed small series', fixed, [0, 10, 20, 32]],
] as const;

describe.each(series)('incremental indicators on %s', (_, bars, splits) => {
  const values = bars.map((b) => b.close);
  const high = bars.map((b) => b.high);
  const low = bars.map((b) => b.low);
  describe.each(splits)('reset with the first %i bars, then updates', (split) => {
    it('SMA (5, 20) and EMA (9, 20) equal the reference', () => {
      for (const period of [5, 20]) {
        const ref = aligned(SMA.calculate({ period, values }), bars.length);
        live(liveSma(period), [...bars], split).forEach((v, i) => expectClose(v, ref[i]));
      }
      for (const period of [9, 20]) {
        const ref = aligned(EMA.calculate({ period, values }), bars.length);
        live(liveEma(period), [...bars], split).forEach((v, i) => expectClose(v, ref[i]));
      }
    });

    it('Bollinger (20, 2) equals the reference', () => {
      const ref = aligned(BollingerBands.calculate({ period: 20, stdDev: 2, values }), bars.length);
      live(liveBollinger(20, 2), [...bars], split).forEach((v, i) => {
        expectClose(v?.middle, ref[i]?.middle);
        expectClose(v?.upper, ref[i]?.upper);
        expectClose(v?.lower, ref[i]?.lower);
      });
    });

    it("RSI (14) equals Wilder's averages of the reference, and its rounded RSI", () => {
      const gains = aligned(AverageGain.calculate({ period: 14, values }), bars.length);
      const losses = aligned(AverageLoss.calculate({ period: 14, values }), bars.length);
      const rounded = aligned(RSI.calculate({ period: 14, values }), bars.length);
      live(liveRsi(14), [...bars], split).forEach((v, i) => {
        const g = gains[i];
        const l = losses[i];
        expectClose(v, g === null || g === undefined ? null : rsiOf(g, l!));
        // The package prints RSI to two decimals.
        if (rounded[i] !== null) expect(Math.abs(v! - rounded[i]!)).toBeLessThanOrEqual(0.005001);
      });
    });

    it('MACD (12, 26, 9) line, signal and histogram equal the reference', () => {
      const input = { fastPeriod: 12, slowPeriod: 26, signalPeriod: 9, values };
      const ref = aligned(
        MACD.calculate({ ...input, SimpleMAOscillator: false, SimpleMASignal: false }),
        bars.length,
      );
      live(liveMacd(12, 26, 9), [...bars], split).forEach((v, i) => {
        expectClose(v?.macd, ref[i]?.MACD);
        expectClose(v?.signal, ref[i]?.signal);
        expectClose(v?.histogram, ref[i]?.histogram);
      });
    });

    it('Stochastic (14, 3) %K and %D equal the reference', () => {
      const ref = aligned(
        Stochastic.calculate({ period: 14, signalPeriod: 3, high, low, close: values }),
        bars.length,
      );
      live(liveStochastic(14, 3), [...bars], split).forEach((v, i) => {
        expectClose(v?.k, ref[i]?.k);
        expectClose(v?.d, ref[i]?.d);
      });
    });
  });
});

describe('incremental indicators: updates of the newest bar', () => {
  const bars = walk(120, 3);
  const all = () => [
    liveSma(20),
    liveEma(20),
    liveBollinger(20, 2),
    liveRsi(14),
    liveMacd(12, 26, 9),
    liveStochastic(14, 3),
  ];

  it('many updates of the same bar, then the next bar, give what one update gives', () => {
    const once = all();
    const many = all();
    for (const [i, indicator] of once.entries()) {
      indicator.reset(bars.slice(0, 60));
      many[i]!.reset(bars.slice(0, 60));
    }
    for (const bar of bars.slice(60)) {
      const single = once.map((ind) => ind.update(bar));
      let last: unknown[] = [];
      for (let n = 0; n < 25; n++) {
        const wobble = { ...bar, close: bar.close + Math.sin(n) * 3, low: bar.low - n };
        many.forEach((ind) => ind.update(wobble));
        last = many.map((ind) => ind.update(bar));
      }
      expect(last).toEqual(single);
    }
  });

  it('the value of an updated bar is what a reset with that bar gives', () => {
    const ind = liveRsi(14);
    ind.reset(bars.slice(0, 50));
    const changed = { ...bars[49]!, close: bars[49]!.close + 2 };
    const value = ind.update(changed);
    expect(value).toBe(
      liveRsi(14)
        .reset([...bars.slice(0, 49), changed])
        .at(-1),
    );
  });

  it('a bar older than the newest is ignored', () => {
    const ind = liveSma(3);
    ind.reset(bars.slice(0, 10));
    expect(ind.update(bars[5]!)).toBeNull();
    expect(ind.update(bars[10]!)).toBe(liveSma(3).reset(bars.slice(0, 11)).at(-1));
  });

  it('flat prices: bands close, RSI 100 (no loss), %K 0, exact at large prices', () => {
    const flat = Array.from({ length: 40 }, (_, i) => ({
      time: i,
      high: 67_012.35,
      low: 67_012.35,
      close: 67_012.35,
    }));
    expect(liveBollinger(20, 2).reset(flat).at(-1)).toEqual({
      middle: 67_012.35,
      upper: 67_012.35,
      lower: 67_012.35,
    });
    expect(liveRsi(14).reset(flat).at(-1)).toBe(100);
    expect(liveStochastic(14, 3).reset(flat).at(-1)).toEqual({ k: 0, d: 0 });
  });

  it('period 1 and windows longer than the series', () => {
    expect(liveSma(1).reset(bars.slice(0, 3))).toEqual(bars.slice(0, 3).map((b) => b.close));
    expect(liveEma(50).reset(bars.slice(0, 10))).toEqual(Array(10).fill(null));
    expect(liveMacd(12, 26, 9).reset(bars.slice(0, 25))).toEqual(Array(25).fill(null));
  });
});
