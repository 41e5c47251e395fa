import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { winPayout } from '../rates';
import {
  DEFAULT_SELL_SPREAD_BP,
  MS_PER_YEAR,
  normalCdf,
  sellValue,
  winProbability,
  type SellInputs,
} from './sell-value';

/** Orders as the app takes them: stakes 10.00 to 50 000.00, rates 0.5-0.95, up to 5 minutes. */
const inputs = fc.record({
  direction: fc.constantFrom<'up' | 'down'>('up', 'down'),
  amount: fc.integer({ min: 1_000, max: 5_000_000 }),
  rateBp: fc.integer({ min: 5_000, max: 9_500 }),
  entryPrice: fc.integer({ min: 1_000, max: 10_000_000 }),
  moveBp: fc.integer({ min: -300, max: 300 }),
  msLeft: fc.integer({ min: 1, max: 300_000 }),
  annualVol: fc.double({ min: 0.05, max: 1.2, noNaN: true }),
  spreadBp: fc.constant(DEFAULT_SELL_SPREAD_BP),
});
const toSell = ({ moveBp, ...i }: typeof inputs extends fc.Arbitrary<infer T> ? T : never) => ({
  ...i,
  price: Math.max(1, Math.round((i.entryPrice * (10_000 + moveBp)) / 10_000)),
});

/**
 * N(x) written independently (Abramowitz & Stegun 26.2.17, absolute error < 7.5e-8), with the
 * engine's Math.log: the value it gives may differ from the module's by a cent at a rounding
 * boundary, never more.
 */
function referenceValue(i: SellInputs): number {
  const payout = winPayout(i.amount, i.rateBp);
  const tau = i.msLeft / MS_PER_YEAR;
  const d =
    (Math.log(i.price / i.entryPrice) - (i.annualVol ** 2 * tau) / 2) /
    (i.annualVol * Math.sqrt(tau));
  const x = i.direction === 'up' ? d : -d;
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const poly =
    t *
    (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  const tail = (Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI)) * poly;
  const p = x >= 0 ? 1 - tail : tail;
  return Math.min(payout, Math.floor(payout * p * (1 - i.spreadBp / 10_000)));
}

describe('the early-close (sell) value', () => {
  it('N is the normal distribution: reference points', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1)).toBeCloseTo(0.8413447460685429, 15);
    expect(normalCdf(-1.96)).toBeCloseTo(0.024997895148220435, 15);
    expect(normalCdf(3)).toBeCloseTo(0.9986501019683699, 15);
  });

  it('a worked example (docs/FAIRNESS.md): 100.00 up at 85 %, 0.1 % above the entry, 20 s left, σ 60 %', () => {
    const i: SellInputs = {
      direction: 'up',
      amount: 10_000,
      rateBp: 8_500,
      entryPrice: 6_000_000,
      price: 6_006_000,
      msLeft: 20_000,
      annualVol: 0.6,
      spreadBp: DEFAULT_SELL_SPREAD_BP,
    };
    // τ = 20 s / year = 6.3376e-7; σ√τ = 4.7765e-4; ln(S/K) = 9.995e-4; d = 2.09228
    expect(winProbability(i)).toBeCloseTo(0.981793, 6);
    // 185.00 × 0.981793 × 0.95 = 172.5501… → 172.55
    expect(sellValue(i)).toBe(17_255);
  });

  it('equals the formula on generated inputs and is never above the payout nor below 0', () => {
    fc.assert(
      fc.property(inputs, (raw) => {
        const i = toSell(raw);
        const v = sellValue(i);
        expect(Number.isSafeInteger(v)).toBe(true);
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(winPayout(i.amount, i.rateBp));
        expect(Math.abs(v - referenceValue(i))).toBeLessThanOrEqual(1);
      }),
      { numRuns: 2_000 },
    );
  });

  it('rises with the price for up orders and falls with it for down orders', () => {
    fc.assert(
      fc.property(inputs, fc.integer({ min: 1, max: 200 }), (raw, stepBp) => {
        const i = toSell(raw);
        const higher = { ...i, price: Math.round((i.price * (10_000 + stepBp)) / 10_000) + 1 };
        if (i.direction === 'up') expect(sellValue(higher)).toBeGreaterThanOrEqual(sellValue(i));
        else expect(sellValue(higher)).toBeLessThanOrEqual(sellValue(i));
        // The probability itself moves strictly where it is not saturated.
        const p = winProbability(i);
        const q = winProbability(higher);
        if (p > 1e-9 && p < 1 - 1e-9) expect(i.direction === 'up' ? q > p : q < p).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  it('tends to the payout (in the money) or to 0 (out of it) as the time runs out', () => {
    fc.assert(
      fc.property(inputs, (raw) => {
        const i = toSell({ ...raw, moveBp: raw.moveBp === 0 ? 1 : raw.moveBp });
        if (i.price === i.entryPrice) return;
        const inMoney = i.direction === 'up' ? i.price > i.entryPrice : i.price < i.entryPrice;
        const payout = winPayout(i.amount, i.rateBp);
        const atEnd = sellValue({ ...i, msLeft: 1e-6 });
        expect(atEnd).toBe(inMoney ? Math.floor((payout * 9_500) / 10_000) : 0);
        // And nearer the end is nearer that limit.
        const later = sellValue({ ...i, msLeft: i.msLeft / 10 });
        const now = sellValue(i);
        if (inMoney) expect(later).toBeGreaterThanOrEqual(now - 1);
        else expect(later).toBeLessThanOrEqual(now + 1);
      }),
      { numRuns: 1_000 },
    );
  });

  it('with no time or no volatility left, the known outcome: win, draw (the stake) or loss', () => {
    const base: SellInputs = {
      direction: 'down',
      amount: 10_000,
      rateBp: 8_000,
      entryPrice: 100_00,
      price: 99_00,
      msLeft: 0,
      annualVol: 0.5,
      spreadBp: 0,
    };
    expect(sellValue(base)).toBe(18_000);
    expect(sellValue({ ...base, price: 100_00 })).toBe(10_000);
    expect(sellValue({ ...base, price: 101_00 })).toBe(0);
    expect(sellValue({ ...base, msLeft: 10_000, annualVol: 0 })).toBe(18_000);
  });
});
