import { describe, expect, it, vi } from 'vitest';
import type { Candle } from '@shared/product';
import { candlesWanted, loadCandleHistory, type CandlePageFetch } from './history';

const MIN = 60_000;
const candle = (t: number): Candle => ({ t, o: '1', h: '1', l: '1', c: '1', v: '0' });

/** A server holding `count` 1m candles ending now, answering like the REST endpoint. */
function server(count: number, now = 10_000 * MIN) {
  const all = Array.from({ length: count }, (_, i) => candle(now - (count - 1 - i) * MIN));
  const fetch = vi.fn<CandlePageFetch>(({ limit, before }) => {
    const eligible = before === undefined ? all : all.filter((c) => c.t < before);
    return Promise.resolve(eligible.slice(-limit));
  });
  return { all, fetch };
}

describe('candle history', () => {
  it('shows 24 hours of 1m candles and one page of the others', () => {
    expect(candlesWanted('1m')).toBe(1440);
    expect(candlesWanted('5m')).toBe(1000);
    expect(candlesWanted('1d')).toBe(1000);
  });

  it('pages back with before to reach 24 hours of 1m candles', async () => {
    const { all, fetch } = server(3000);
    const got = await loadCandleHistory(fetch, 1440);
    expect(got).toEqual(all.slice(-1440));
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch.mock.calls[0]?.[0]).toEqual({ limit: 1000, before: undefined });
    expect(fetch.mock.calls[1]?.[0]).toEqual({ limit: 440, before: all[3000 - 1000]?.t });
  });

  it('stops when the server runs out of history', async () => {
    const { all, fetch } = server(1200);
    const got = await loadCandleHistory(fetch, 1440);
    expect(got).toEqual(all);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('makes one call when one page is enough or the product is new', async () => {
    const { all, fetch } = server(30);
    expect(await loadCandleHistory(fetch, 1000)).toEqual(all);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('drops candles of a page that ignored before', async () => {
    const range = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => candle((from + i) * MIN));
    const fetch = vi
      .fn<CandlePageFetch>()
      .mockResolvedValueOnce(range(1000, 2000))
      // Overlaps what we have: only 700..999 are new.
      .mockResolvedValueOnce(range(700, 1140))
      .mockResolvedValue([]);
    const got = await loadCandleHistory(fetch, 1440);
    const minutes = got.map((c) => c.t / MIN);
    expect(minutes[0]).toBe(700);
    expect(minutes).toHaveLength(1300);
    expect(new Set(minutes).size).toBe(1300);
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
  });

  it('ends a closed market’s history at its last tick, not now', async () => {
    const { all, fetch } = server(3000);
    const closedAt = all[1999]!.t + 30_000; // the last tick, half-way through a minute
    const got = await loadCandleHistory(fetch, 1440, closedAt);
    expect(got).toEqual(all.slice(2000 - 1440, 2000));
    expect(fetch.mock.calls[0]?.[0]).toEqual({ limit: 1000, before: closedAt + 1 });
  });
});
