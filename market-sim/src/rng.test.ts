import { describe, it, expect } from 'vitest';
import { createRng, deriveSeed } from './rng';
import { defaultCatalogue } from './catalogue';

const draws = (seed: number, n: number): number[] => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => rng.next());
};

describe('createRng', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(draws(42, 1000)).toEqual(draws(42, 1000));
    expect(draws(42, 10)).not.toEqual(draws(43, 10));
    // Seeds past 2^32 keep their high bits.
    expect(draws(2 ** 32 + 5, 10)).not.toEqual(draws(5, 10));
  });

  it('draws uniforms in [0, 1) with the right mean', () => {
    const xs = draws(7, 100_000);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean).toBeCloseTo(0.5, 2);
  });

  it('draws standard normals', () => {
    const rng = createRng(11);
    const n = 100_000;
    let sum = 0;
    let sumSq = 0;
    let finite = true;
    for (let i = 0; i < n; i += 1) {
      const z = rng.normal();
      finite &&= Number.isFinite(z);
      sum += z;
      sumSq += z * z;
    }
    expect(finite).toBe(true);
    expect(sum / n).toBeCloseTo(0, 1);
    expect(Math.sqrt(sumSq / n - (sum / n) ** 2)).toBeCloseTo(1, 1);
  });

  it('draws Poisson counts and Bernoulli trials at their rates', () => {
    const rng = createRng(3);
    for (const lambda of [0.01, 2.5, 50]) {
      let total = 0;
      for (let i = 0; i < 20_000; i += 1) total += rng.poisson(lambda);
      expect(total / 20_000).toBeGreaterThan(lambda * 0.9);
      expect(total / 20_000).toBeLessThan(lambda * 1.1);
    }
    expect(rng.poisson(0)).toBe(0);
    let hits = 0;
    for (let i = 0; i < 20_000; i += 1) if (rng.bernoulli(0.3)) hits += 1;
    expect(hits / 20_000).toBeCloseTo(0.3, 1);
  });

  it('refuses a non-finite seed', () => {
    expect(() => createRng(Number.NaN)).toThrow(RangeError);
  });
});

describe('deriveSeed', () => {
  it('gives every product its own 32-bit seed, stable for a simulator seed', () => {
    const seeds = defaultCatalogue.map((p) => deriveSeed(1, p.id));
    expect(new Set(seeds).size).toBe(seeds.length);
    for (const s of seeds) expect(Number.isInteger(s) && s >= 0 && s < 2 ** 32).toBe(true);
    expect(defaultCatalogue.map((p) => deriveSeed(1, p.id))).toEqual(seeds);
    expect(deriveSeed(2, 'BTCUSDT')).not.toBe(deriveSeed(1, 'BTCUSDT'));
  });
});
