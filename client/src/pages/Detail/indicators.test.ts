import { describe, expect, it } from 'vitest';
import { bollinger, sma } from './indicators';

/**
 * Reference values from closed forms: the mean of 1…n is (n + 1) / 2 and the population standard
 * deviation of n consecutive integers is √((n² − 1) / 12); and a direct recomputation per window.
 */
describe('chart indicators', () => {
  it('SMA: none until the window is full, then the mean of the window', () => {
    expect(sma([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2, 3, 4]);
    expect(sma([5], 1)).toEqual([5]);
    expect(sma([1, 2], 3)).toEqual([null, null]);
  });

  it('SMA and bands agree with a direct computation over each window of a price path', () => {
    // A deterministic path around 100 (a linear congruential walk), 200 closes.
    let x = 7;
    const closes = Array.from({ length: 200 }, (_, i) => {
      x = (x * 48_271) % 2_147_483_647;
      return 100 + Math.sin(i / 9) * 5 + (x / 2_147_483_647 - 0.5);
    });
    const means = sma(closes, 20);
    const bands = bollinger(closes, 20, 2);
    for (let i = 19; i < closes.length; i++) {
      const window = closes.slice(i - 19, i + 1);
      const mean = window.reduce((a, b) => a + b, 0) / 20;
      const sd = Math.sqrt(window.reduce((a, b) => a + (b - mean) ** 2, 0) / 20);
      expect(means[i]).toBeCloseTo(mean, 9);
      expect(bands[i]!.upper).toBeCloseTo(mean + 2 * sd, 9);
      expect(bands[i]!.lower).toBeCloseTo(mean - 2 * sd, 9);
    }
  });

  it('Bollinger (20, 2): population standard deviation around the SMA', () => {
    const ramp = Array.from({ length: 21 }, (_, i) => i + 1); // 1 … 21
    const bands = bollinger(ramp);
    expect(bands.slice(0, 19)).toEqual(Array(19).fill(null));
    const sd = Math.sqrt((20 ** 2 - 1) / 12); // 5.766281297335398
    expect(bands[19]!.middle).toBe(10.5);
    expect(bands[19]!.upper).toBeCloseTo(10.5 + 2 * sd, 12);
    expect(bands[19]!.lower).toBeCloseTo(10.5 - 2 * sd, 12);
    // The window slides: 2 … 21.
    expect(bands[20]!.middle).toBe(11.5);
    expect(bands[20]!.upper - bands[20]!.middle).toBeCloseTo(2 * sd, 12);
  });

  it('Bollinger bands close on a flat price and stay exact at large prices', () => {
    expect(bollinger(Array(20).fill(67_012.35))[19]).toEqual({
      middle: 67_012.35,
      upper: 67_012.35,
      lower: 67_012.35,
    });
    const big = Array.from({ length: 20 }, (_, i) => 1e6 + (i % 2)); // 1 000 000 / 1 000 001
    const band = bollinger(big)[19]!;
    expect(band.middle).toBeCloseTo(1_000_000.5, 9);
    expect(band.upper - band.middle).toBeCloseTo(1, 9); // σ = 0.5, × 2
  });
});
