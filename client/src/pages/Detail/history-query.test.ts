import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@client/state/query-client';
import { chartHistoryKey, HISTORY_FRESH_MS, takeHistory } from './history-query';

const signal = () => new AbortController().signal;

describe('chart history taken from the cache', () => {
  afterEach(() => {
    queryClient.clear();
    vi.useRealTimers();
  });

  it('draws a prefetched history without a request, once; a reload reads afresh', async () => {
    const key = chartHistoryKey('BTCUSDT', '1m', null);
    await queryClient.prefetchQuery({ queryKey: key, queryFn: () => Promise.resolve(['cached']) });
    const load = vi.fn(() => Promise.resolve(['fresh']));
    expect(await takeHistory(key, load, signal())).toEqual(['cached']);
    expect(load).not.toHaveBeenCalled();
    expect(await takeHistory(key, load, signal())).toEqual(['fresh']);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('joins a prefetch still on its way instead of asking again', async () => {
    const key = chartHistoryKey('ETHUSDT', '5s', null);
    let answer: (v: string[]) => void = () => {};
    void queryClient.prefetchQuery({
      queryKey: key,
      queryFn: () => new Promise<string[]>((resolve) => (answer = resolve)),
    });
    const load = vi.fn(() => Promise.resolve(['own']));
    const taken = takeHistory(key, load, signal());
    answer(['prefetched']);
    expect(await taken).toEqual(['prefetched']);
    expect(load).not.toHaveBeenCalled();
  });

  it('reads afresh over a history too old to draw (the ticks since are not in it)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const key = chartHistoryKey('XAUUSD', 'line', null);
    await queryClient.prefetchQuery({ queryKey: key, queryFn: () => Promise.resolve(['old']) });
    vi.setSystemTime(Date.now() + HISTORY_FRESH_MS + 1);
    const load = vi.fn(() => Promise.resolve(['fresh']));
    expect(await takeHistory(key, load, signal())).toEqual(['fresh']);
  });
});
