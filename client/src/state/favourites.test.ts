import { describe, expect, it } from 'vitest';
import { favouritesFirst } from './favourites';

const list = ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'XAUUSD'].map((id) => ({ id }));

describe('favourites first', () => {
  it('puts the favourites first in the order marked, the rest in their own order', () => {
    expect(favouritesFirst(list, ['XAUUSD', 'ETHUSDT']).map((p) => p.id)).toEqual([
      'XAUUSD',
      'ETHUSDT',
      'BTCUSDT',
      'EURUSD',
    ]);
  });

  it('leaves the list as it is without favourites, and ignores ones not in it', () => {
    expect(favouritesFirst(list, []).map((p) => p.id)).toEqual(list.map((p) => p.id));
    expect(favouritesFirst(list, ['GONE', 'EURUSD']).map((p) => p.id)).toEqual([
      'EURUSD',
      'BTCUSDT',
      'ETHUSDT',
      'XAUUSD',
    ]);
  });
});
