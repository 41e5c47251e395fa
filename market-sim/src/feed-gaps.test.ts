import { describe, expect, it } from 'vitest';
import { FeedGaps } from './feed-gaps';

describe('the feed gaps of the last hour', () => {
  it('keeps the largest gap per product over the last hour, and forgets older ones', () => {
    const g = new FeedGaps();
    const t0 = 1_800_000_000_000;
    expect(g.largest('BTCUSDT', t0)).toBeNull();
    g.record('BTCUSDT', t0, 600);
    g.record('BTCUSDT', t0 + 10_000, 4200);
    g.record('BTCUSDT', t0 + 20_000, 700);
    g.record('ETHUSDT', t0, 500);
    expect(g.largest('BTCUSDT', t0 + 30_000)).toBe(4200);
    expect(g.largest('ETHUSDT', t0 + 30_000)).toBe(500);
    // An hour and a minute later the 4.2 s gap is gone; a later, smaller one remains.
    g.record('BTCUSDT', t0 + 30 * 60_000, 800);
    expect(g.largest('BTCUSDT', t0 + 61 * 60_000)).toBe(800);
    expect(g.largest('BTCUSDT', t0 + 92 * 60_000)).toBeNull();
  });
});
