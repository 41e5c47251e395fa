import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createPriceModel, type ModelStep } from './model';
import { createRng, deriveSeed } from './rng';
import { defaultCatalogue, findProduct, type ProductSpec } from './catalogue';

const MS_PER_YEAR = 365.25 * 86_400_000;
const spec = (id: string): ProductSpec => findProduct(id)!;
const btc = spec('BTCUSDT');

/** Steps of a jittered ~500 ms cadence, like the feed loop's. */
const jitteredDt = (i: number): number => 400 + ((i * 37) % 200);

function run(s: ProductSpec, seed: number, steps: number, startUnits?: number): ModelStep[] {
  const model = createPriceModel(s, seed, startUnits);
  return Array.from({ length: steps }, (_, i) => model.next(jitteredDt(i)));
}

/** Annualised realised volatility of the quantised path over `steps` steps of `dtMs`. */
function realisedVol(s: ProductSpec, seed: number, steps: number, dtMs: number): number {
  const model = createPriceModel(s, seed);
  let prev = model.price;
  let sumSq = 0;
  for (let i = 0; i < steps; i += 1) {
    const { price } = model.next(dtMs);
    const r = Math.log(price / prev);
    sumSq += r * r;
    prev = price;
  }
  return Math.sqrt(sumSq / ((steps * dtMs) / MS_PER_YEAR));
}

describe('createPriceModel: determinism', () => {
  it('replays the same 10 000 steps for the same seed', () => {
    // Flattened to plain numbers: a deep comparison of 10 000 objects is needlessly slow.
    const flat = () => run(btc, 42, 10_000).flatMap((s) => [s.price, s.qty]);
    const a = flat();
    expect(a).toHaveLength(20_000);
    expect(flat()).toEqual(a);
  });

  it('differs between seeds', () => {
    const a = run(btc, 1, 100).map((s) => s.price);
    const b = run(btc, 2, 100).map((s) => s.price);
    expect(b).not.toEqual(a);
  });

  it("keeps each product's stream independent of the others", () => {
    const alone = run(btc, 9, 2_000);
    // Stepping every other product in between, in any order, changes nothing for BTC.
    const models = defaultCatalogue.map((p) => createPriceModel(p, 9));
    const btcModel = models[0]!;
    const interleaved: ModelStep[] = [];
    for (let i = 0; i < 2_000; i += 1) {
      for (let k = models.length - 1; k > 0; k -= 1) models[k]!.next(jitteredDt(i + k));
      interleaved.push(btcModel.next(jitteredDt(i)));
    }
    expect(interleaved).toEqual(alone);
  });

  it('gives two products with equal parameters different paths', () => {
    // The stream is derived from the id, so a copy under another id moves differently.
    const twin = { ...btc, id: 'BTCTWIN' };
    expect(run(twin, 9, 100).map((s) => s.price)).not.toEqual(run(btc, 9, 100).map((s) => s.price));
  });
});

describe('createPriceModel: quantisation', () => {
  it('starts at the catalogue price', () => {
    expect(createPriceModel(btc, 1).price).toBe(6_700_000);
    expect(createPriceModel(spec('DOGEUSDT'), 1).price).toBe(15_000);
    expect(createPriceModel(spec('US500'), 1).price).toBe(52_000);
  });

  it('always gives a multiple of the tick, at least one tick, and whole lots ≥ 1', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.integer({ min: 1, max: 50 }),
        fc.constantFrom(...defaultCatalogue),
        fc.double({ min: 0.01, max: 3, noNaN: true }),
        fc.array(fc.integer({ min: 0, max: 3_600_000 }), { minLength: 1, maxLength: 200 }),
        (seed, tickSize, base, annualVol, dts) => {
          const s: ProductSpec = { ...base, tickSize, annualVol, jumpsPerDay: 20 };
          const model = createPriceModel(s, seed);
          expect(model.price % tickSize).toBe(0);
          for (const dt of dts) {
            const { price, qty } = model.next(dt);
            expect(Number.isSafeInteger(price)).toBe(true);
            expect(price % tickSize).toBe(0);
            expect(price).toBeGreaterThanOrEqual(tickSize);
            expect(model.price).toBe(price);
            expect(Number.isSafeInteger(qty) && qty >= 1).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('lets moves smaller than a tick accumulate instead of stalling', () => {
    // EUR/USD moves about one unit per 500 ms; at a coarse tick of 50 units a per-step rounding
    // of the state would never leave the start price.
    const coarse = { ...spec('EURUSD'), tickSize: 50, startPrice: '1.08500' };
    const prices = run(coarse, 5, 20_000).map((s) => s.price);
    expect(new Set(prices).size).toBeGreaterThan(3);
  });
});

describe('createPriceModel: resume', () => {
  it('starts from startUnits, rounded to the tick', () => {
    expect(createPriceModel(btc, 1, 7_012_345).price).toBe(7_012_345);
    // A cheap product with a coarse tick: never below one tick.
    const ticked = { ...btc, tickSize: 25, startPrice: '10.00' };
    expect(createPriceModel(ticked, 1, 1013).price).toBe(1025);
    expect(createPriceModel(ticked, 1, 3).price).toBe(25);
  });

  it('clamps a start beyond the band around the catalogue price (×/÷ 10 000)', () => {
    expect(createPriceModel(btc, 1, 3).price).toBe(670);
  });

  it('resumes a stored state exactly: the same path as the run it was taken from', () => {
    // A fresh generator per step, as the live feed draws (one keyed stream per tick).
    const drawsOf = (i: number) => createRng(deriveSeed(5, `step:${i}`));
    const whole = createPriceModel(btc, 0);
    const steps = Array.from({ length: 600 }, (_, i) => {
      const step = whole.next(250 + (i % 7) * 100, drawsOf(i));
      return { step, state: whole.state() };
    });
    const at = steps[299]!.state;
    // Stored as strings, as the database and the API carry it.
    const stored = { logPrice: Number(String(at.logPrice)), logVol: Number(String(at.logVol)) };
    const again = createPriceModel(btc, 0, stored);
    for (let i = 300; i < 600; i++)
      expect(again.next(250 + (i % 7) * 100, drawsOf(i))).toEqual(steps[i]!.step);
    expect(again.state()).toEqual(steps[599]!.state);
  });

  it('continues from there, not from the catalogue price', () => {
    const resumed = createPriceModel(btc, 3, 7_500_000);
    const { price } = resumed.next(500);
    expect(Math.abs(price / 7_500_000 - 1)).toBeLessThan(0.01);
    // Deterministic too.
    expect(run(btc, 3, 500, 7_500_000)).toEqual(run(btc, 3, 500, 7_500_000));
  });

  it('refuses a start that is not a positive finite number', () => {
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createPriceModel(btc, 1, bad)).toThrow(RangeError);
    }
  });
});

describe('createPriceModel: statistics', () => {
  it.each(['BTCUSDT', 'DOGEUSDT', 'EURUSD', 'XAUUSD', 'US500'])(
    '%s realises about its annual volatility over 200 000 steps of 500 ms',
    (id) => {
      const s = spec(id);
      const vol = realisedVol(s, 2024, 200_000, 500);
      expect(vol).toBeGreaterThan(0.5 * s.annualVol);
      expect(vol).toBeLessThan(2 * s.annualVol);
    },
  );

  it('clusters volatility: busy five-minute windows follow busy ones', () => {
    const model = createPriceModel({ ...btc, jumpsPerDay: 0 }, 77);
    const windowSteps = 300; // 5 minutes of 1 s steps
    const logVars: number[] = [];
    let prev = model.price;
    for (let w = 0; w < 400; w += 1) {
      let sumSq = 0;
      for (let i = 0; i < windowSteps; i += 1) {
        const { price } = model.next(1000);
        sumSq += Math.log(price / prev) ** 2;
        prev = price;
      }
      logVars.push(Math.log(sumSq));
    }
    const xs = logVars.slice(0, -1);
    const ys = logVars.slice(1);
    const mean = (a: number[]) => a.reduce((p, q) => p + q, 0) / a.length;
    const mx = mean(xs);
    const my = mean(ys);
    const cov = mean(xs.map((x, i) => (x - mx) * (ys[i]! - my)));
    const sd = (a: number[], m: number) => Math.sqrt(mean(a.map((x) => (x - m) ** 2)));
    expect(cov / (sd(xs, mx) * sd(ys, my))).toBeGreaterThan(0.3);
  });

  it('jumps at about jumpsPerDay', () => {
    const model = createPriceModel(btc, 8);
    const steps = 100_000;
    const dtMs = 60_000; // 69.4 days
    for (let i = 0; i < steps; i += 1) model.next(dtMs);
    const expected = (btc.jumpsPerDay * steps * dtMs) / 86_400_000; // ≈ 278, sd ≈ 17
    expect(model.jumps).toBeGreaterThan(expected * 0.75);
    expect(model.jumps).toBeLessThan(expected * 1.25);
  });

  it('never jumps when jumpsPerDay is 0', () => {
    const model = createPriceModel({ ...btc, jumpsPerDay: 0 }, 8);
    for (let i = 0; i < 10_000; i += 1) model.next(60_000);
    expect(model.jumps).toBe(0);
  });

  it('trades about typicalLots per tick', () => {
    const steps = run(spec('ETHUSDT'), 4, 20_000);
    const mean = steps.reduce((a, s) => a + s.qty, 0) / steps.length;
    expect(mean).toBeGreaterThan(0.6 * 100);
    expect(mean).toBeLessThan(1.4 * 100);
  });
});

describe('createPriceModel: long runs', () => {
  it('stays positive, finite and on the tick for years at extreme volatility', () => {
    const wild: ProductSpec = { ...spec('DOGEUSDT'), annualVol: 5, jumpsPerDay: 50, tickSize: 3 };
    const model = createPriceModel(wild, 13);
    for (let i = 0; i < 50_000; i += 1) {
      const { price } = model.next(3_600_000); // an hour a step: 5.7 years
      if (!Number.isSafeInteger(price) || price < 3 || price % 3 !== 0) {
        expect.fail(`step ${i}: bad price ${price}`);
      }
    }
  });

  it('keeps a catalogue product near real levels over a year', () => {
    const model = createPriceModel(btc, 21);
    let min = Infinity;
    let max = 0;
    for (let i = 0; i < 8_766; i += 1) {
      const { price } = model.next(3_600_000);
      min = Math.min(min, price);
      max = Math.max(max, price);
    }
    expect(min).toBeGreaterThan(6_700_000 / 20);
    expect(max).toBeLessThan(6_700_000 * 20);
  });

  it('does not move on a zero step and refuses a negative one', () => {
    const model = createPriceModel(btc, 1);
    const before = model.price;
    expect(model.next(0).price).toBe(before);
    expect(() => model.next(-1)).toThrow(RangeError);
    expect(() => model.next(Number.NaN)).toThrow(RangeError);
  });
});
