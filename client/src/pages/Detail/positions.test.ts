import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import {
  barTime,
  futureX,
  inTheMoney,
  markerSpecs,
  openPositions,
  paysNow,
  recentClosed,
} from './positions';
import {
  lastOrderOn,
  loadChoice,
  maxAmount,
  quickAmounts,
  saveChoice,
  stepAmount,
} from './quick-ticket';

const order = (over: Partial<Order> = {}): Order => ({
  id: '1',
  mode: 'real',
  productId: 'BTCUSDT',
  direction: 'up',
  amount: 10_000,
  duration: 30,
  expiry: null,
  rate: '0.9',
  status: 'open',
  entry: { seq: 1, ts: 1_000_000, price: '67000.50' },
  exit: null,
  payout: null,
  pnl: null,
  createdAt: 999_000,
  expiresAt: 1_030_000,
  settledAt: null,
  voidReason: null,
  sale: null,
  ...over,
});

describe('in the money and what it pays now', () => {
  it('up wins above the entry, down below, a tie or no entry is not in the money', () => {
    expect(inTheMoney(order(), '67000.51')).toBe(true);
    expect(inTheMoney(order(), '67000.49')).toBe(false);
    expect(inTheMoney(order(), '67000.5')).toBe(false);
    expect(inTheMoney(order({ direction: 'down' }), '67000.49')).toBe(true);
    expect(inTheMoney(order({ direction: 'down' }), '67000.51')).toBe(false);
    expect(inTheMoney(order({ entry: null }), '1')).toBe(false);
    expect(inTheMoney(order(), null)).toBe(false);
  });
  it('pays the payout when winning, the stake on a tie, nothing when losing', () => {
    expect(paysNow(order(), '67001')).toBe(19_000);
    expect(paysNow(order(), '67000.50')).toBe(10_000);
    expect(paysNow(order(), '66999')).toBe(0);
    expect(paysNow(order(), null)).toBeNull();
    expect(paysNow(order({ entry: null }), '1')).toBeNull();
  });
});

describe('which orders are drawn', () => {
  const orders = [
    order({ id: '1', expiresAt: 50 }),
    order({ id: '2', expiresAt: 40 }),
    order({ id: '3', productId: 'ETHUSDT' }),
    order({ id: '4', mode: 'practice' }),
    order({ id: '5', status: 'won', exit: { seq: 2, ts: 2_000_000, price: '1' } }),
    order({ id: '6', status: 'lost', exit: { seq: 3, ts: 3_000_000, price: '1' } }),
    order({ id: '7', status: 'void', entry: null }),
  ];
  it('open positions of this product and mode, soonest expiry first', () => {
    expect(openPositions(orders, 'BTCUSDT', 'real').map((o) => o.id)).toEqual(['2', '1']);
    expect(openPositions(orders, 'BTCUSDT', 'practice').map((o) => o.id)).toEqual(['4']);
  });
  it('recent closed ones with both ticks, newest first, limited', () => {
    expect(recentClosed(orders, 'BTCUSDT', 'real').map((o) => o.id)).toEqual(['6', '5']);
    expect(recentClosed(orders, 'BTCUSDT', 'real', 1).map((o) => o.id)).toEqual(['6']);
  });
});

describe('marks on the time axis', () => {
  it('puts an instant on the start of its bar', () => {
    expect(barTime(61_500, 60_000)).toBe(60);
    expect(barTime(61_500, null)).toBe(61);
  });
  it('lists entry and exit arrows in time order, dropping those before the first bar', () => {
    const specs = markerSpecs(
      [order({ id: '9', entry: { seq: 1, ts: 120_000, price: '1' } })],
      [
        order({
          id: '8',
          status: 'won',
          entry: { seq: 1, ts: 30_000, price: '1' },
          exit: { seq: 2, ts: 90_000, price: '2' },
        }),
      ],
      60_000,
      60,
    );
    expect(specs.map((s) => [s.orderId, s.kind, s.time])).toEqual([
      ['8', 'exit', 60],
      ['9', 'entry', 120],
    ]);
  });
  it('places a future moment past the last bar', () => {
    expect(futureX(150_000, { time: 120, x: 300 }, 10, 60_000)).toBe(305);
  });
});

describe('the faster ticket', () => {
  const bounds = { minStake: 1_000, maxStake: 1_000_000 };
  it('offers round amounts within the bounds and the balance', () => {
    expect(quickAmounts(bounds, 2_000_000)).toEqual([1_000, 5_000, 10_000, 50_000]);
    expect(quickAmounts(bounds, 7_000)).toEqual([1_000, 5_000]);
    expect(quickAmounts({ minStake: 2_500, maxStake: 9_000 }, null)).toEqual([2_500, 5_000]);
    expect(quickAmounts(bounds, 500)).toEqual([]);
  });
  it('steps within the bounds, and Max is the balance within them', () => {
    expect(stepAmount(null, 1, bounds)).toBe(1_000);
    expect(stepAmount(5_000, 1, bounds)).toBe(6_000);
    expect(stepAmount(1_000, -1, bounds)).toBe(1_000);
    expect(stepAmount(1_000_000, 1, bounds)).toBe(1_000_000);
    expect(maxAmount(5_000_000, bounds)).toBe(1_000_000);
    expect(maxAmount(4_321, bounds)).toBe(4_321);
    expect(maxAmount(999, bounds)).toBeNull();
    expect(maxAmount(null, bounds)).toBeNull();
  });
  it('remembers the last choice per product', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
    expect(loadChoice('BTCUSDT', storage)).toBeNull();
    saveChoice('BTCUSDT', { duration: 60, amount: 5_000 }, storage);
    expect(loadChoice('BTCUSDT', storage)).toEqual({ duration: 60, amount: 5_000 });
    expect(loadChoice('ETHUSDT', storage)).toBeNull();
    data.set('ticket:ETHUSDT', '{bad');
    expect(loadChoice('ETHUSDT', storage)).toBeNull();
  });
  it('repeats the newest order on this product and mode', () => {
    const orders = [
      order({ id: '1', createdAt: 1, direction: 'down', amount: 2_000 }),
      order({ id: '2', createdAt: 2, duration: 60 }),
      order({ id: '3', createdAt: 3, productId: 'ETHUSDT' }),
    ];
    expect(lastOrderOn(orders, 'BTCUSDT', 'real')).toEqual({
      direction: 'up',
      amount: 10_000,
      duration: 60,
    });
    expect(lastOrderOn(orders, 'BTCUSDT', 'practice')).toBeNull();
  });
});
