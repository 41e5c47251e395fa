import { describe, expect, it } from 'vitest';
import type { TapeTick } from '@client/api/market';
import { candlesFromTape, loadTape, loadTickCandles } from './chart-ticks';

const tick = (seq: number, ts: number, price: string): TapeTick => ({ seq, ts, price });

describe('candles built from the tape', () => {
  it('folds ticks into 5 s candles: first open, highest high, lowest low, last close, tick count', () => {
    const ticks = [
      tick(1, 10_000, '100.00'),
      tick(2, 11_000, '101.50'),
      tick(3, 14_999, '99.25'),
      tick(4, 15_000, '99.75'),
    ];
    expect(candlesFromTape(ticks, 5_000, 2)).toEqual([
      // Volume: the ticks in each (tick volume).
      { t: 10_000, o: '100.00', h: '101.50', l: '99.25', c: '99.25', v: '3' },
      { t: 15_000, o: '99.75', h: '99.75', l: '99.75', c: '99.75', v: '1' },
    ]);
  });

  it('reads the tape page after page without repeating a tick', async () => {
    const tape = Array.from({ length: 2500 }, (_, i) =>
      tick(i + 1, 1_000 + Math.floor(i / 2) * 500, '1.00'),
    );
    const asked: number[] = [];
    const ticks = await loadTape(
      ({ from, to, limit }) => {
        asked.push(from);
        return Promise.resolve(tape.filter((t) => t.ts >= from && t.ts <= to).slice(0, limit));
      },
      0,
      10_000_000,
    );
    expect(ticks.map((t) => t.seq)).toEqual(tape.map((t) => t.seq));
    expect(asked.length).toBe(3);
  });

  it('asks for the last 120 intervals up to now', async () => {
    const now = 1_700_000_010_000; // a whole number of 15 s
    let window: { from: number; to: number } | null = null;
    const candles = await loadTickCandles(
      (w) => {
        window = w;
        return Promise.resolve([tick(1, now - 1, '5.0')]);
      },
      15_000,
      1,
      now,
    );
    expect(window).toEqual({ from: now - 120 * 15_000, to: now, limit: 1000 });
    expect(candles).toHaveLength(1);
  });
});
