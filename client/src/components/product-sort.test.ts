import { describe, expect, it } from 'vitest';
import { categoriesOf, sortProducts } from './product-sort';

const row = (id: string, price: string | null, changePct: string, volume: string) => ({
  id,
  name: id,
  price,
  changePct,
  volume,
});
const rows = [
  row('XAUUSD', '2350.10', '-1.20', '120.5'),
  row('BTCUSDT', '67000.00', '2.50', '9.1'),
  row('eurusd', '1.0850', '0.10', '100000'),
  row('ETHUSDT', null, '2.50', '300'),
];
const ids = (list: { id: string }[]) => list.map((p) => p.id);

describe('sortProducts', () => {
  it('orders names A→Z without regard to case', () => {
    expect(ids(sortProducts(rows, 'name'))).toEqual(['BTCUSDT', 'ETHUSDT', 'eurusd', 'XAUUSD']);
  });

  it('puts the highest price, change and volume first, as numbers, a missing price last', () => {
    expect(ids(sortProducts(rows, 'price'))).toEqual(['BTCUSDT', 'XAUUSD', 'eurusd', 'ETHUSDT']);
    expect(ids(sortProducts(rows, 'volume'))).toEqual(['eurusd', 'ETHUSDT', 'XAUUSD', 'BTCUSDT']);
  });

  it('breaks ties by name and keeps negatives below zero', () => {
    expect(ids(sortProducts(rows, 'change'))).toEqual(['BTCUSDT', 'ETHUSDT', 'eurusd', 'XAUUSD']);
  });

  it('sorts by the name the reader sees, and leaves the input alone', () => {
    const shown = new Map([
      ['XAUUSD', 'Aurum'],
      ['BTCUSDT', 'Bitcoin'],
      ['eurusd', 'Euro'],
      ['ETHUSDT', 'Ether'],
    ]);
    const before = ids(rows);
    expect(ids(sortProducts(rows, 'name', (p) => shown.get(p.id)!))).toEqual([
      'XAUUSD',
      'BTCUSDT',
      'ETHUSDT',
      'eurusd',
    ]);
    expect(ids(sortProducts(rows, 'default'))).toEqual(before);
    expect(ids(rows)).toEqual(before);
  });
});

describe('categoriesOf', () => {
  it('lists the categories that have products, in tab order', () => {
    expect(
      categoriesOf([{ category: 'index' }, { category: 'crypto' }, { category: 'crypto' }]),
    ).toEqual(['crypto', 'index']);
  });
});
