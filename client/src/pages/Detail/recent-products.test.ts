import { describe, expect, it } from 'vitest';
import {
  addRecent,
  openCounts,
  parseRecent,
  readRecent,
  recordRecent,
  RECENT_MAX,
  switcherOrder,
} from './recent-products';

/** A Storage stand-in: a map, optionally one that refuses writes (full or blocked). */
function memory(initial: Record<string, string> = {}, refuse = false) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (refuse) throw new Error('QuotaExceededError');
      data.set(k, v);
    },
  };
}

describe('recent products', () => {
  it('puts the product opened now first, once, and keeps the last six', () => {
    let list: string[] = [];
    for (const id of ['A', 'B', 'C', 'B']) list = addRecent(list, id);
    expect(list).toEqual(['B', 'C', 'A']);
    for (const id of ['D', 'E', 'F', 'G', 'H']) list = addRecent(list, id);
    expect(list).toEqual(['H', 'G', 'F', 'E', 'D', 'B']);
    expect(list).toHaveLength(RECENT_MAX);
  });

  it('reads bad stored data as an empty or cleaned list', () => {
    expect(parseRecent(null)).toEqual([]);
    expect(parseRecent('')).toEqual([]);
    expect(parseRecent('{not json')).toEqual([]);
    expect(parseRecent('{"a":1}')).toEqual([]);
    expect(parseRecent('"BTCUSDT"')).toEqual([]);
    expect(parseRecent('["BTCUSDT", 3, null, "BTCUSDT", "<script>", "ETHUSDT"]')).toEqual([
      'BTCUSDT',
      'ETHUSDT',
    ]);
    expect(parseRecent(JSON.stringify(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H']))).toHaveLength(6);
  });

  it('keeps each user their own list on the device', () => {
    const storage = memory();
    recordRecent(1, 'BTCUSDT', storage);
    recordRecent(1, 'ETHUSDT', storage);
    recordRecent(2, 'XAUUSD', storage);
    expect(readRecent(1, storage)).toEqual(['ETHUSDT', 'BTCUSDT']);
    expect(readRecent(2, storage)).toEqual(['XAUUSD']);
  });

  it('starts afresh over a broken stored value, and survives a storage that refuses writes', () => {
    const storage = memory({ 'recent-products:1': '[[[' });
    expect(recordRecent(1, 'BTCUSDT', storage)).toEqual(['BTCUSDT']);
    expect(readRecent(1, storage)).toEqual(['BTCUSDT']);
    const full = memory({ 'recent-products:1': '["ETHUSDT"]' }, true);
    expect(recordRecent(1, 'BTCUSDT', full)).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(readRecent(1, null)).toEqual([]);
  });
});

describe('switcher chips', () => {
  const known = new Set(['A', 'B', 'C', 'D', 'E']);

  it('shows the favourites first in their order, then the recent ones not among them', () => {
    expect(switcherOrder(['C', 'A'], ['B', 'A', 'D'], known)).toEqual(['C', 'A', 'B', 'D']);
  });

  it('drops products that no longer exist', () => {
    expect(switcherOrder(['Z'], ['B', 'GONE'], known)).toEqual(['B']);
  });

  it('counts open positions per product in the mode shown only', () => {
    const order = (id: string, productId: string, status: string, mode: string) => ({
      id,
      productId,
      status,
      mode,
    });
    const orders = [
      order('1', 'A', 'open', 'real'),
      order('2', 'A', 'open', 'real'),
      order('2', 'A', 'open', 'real'),
      order('3', 'B', 'open', 'practice'),
      order('4', 'B', 'won', 'real'),
      order('5', 'C', 'open', 'real'),
    ];
    const real = openCounts(orders, 'real');
    expect(Object.fromEntries(real)).toEqual({ A: 2, C: 1 });
    expect(Object.fromEntries(openCounts(orders, 'practice'))).toEqual({ B: 1 });
  });
});
