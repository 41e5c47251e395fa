import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import { comparePrices, estimate, outcomeAt, payoutAt } from './order-math';
import { formatRate, durationUnit } from './format';

const order = (direction: 'up' | 'down', amount = 100_000, rate = '0.8'): Order => ({
  id: '1',
  mode: 'real',
  productId: 'BTCUSDT',
  direction,
  amount,
  duration: 30,
  expiry: null,
  rate,
  status: 'open',
  entry: { seq: 1, ts: 0, price: '67000.50' },
  exit: null,
  payout: null,
  pnl: null,
  createdAt: 0,
  expiresAt: 30_000,
  settledAt: null,
  voidReason: null,
  sale: null,
});

describe('estimate', () => {
  it('is stake × rate, and the payout is stake + that, rounded down to the cent', () => {
    expect(estimate(100_000, '0.8')).toEqual({ profit: 80_000, payout: 180_000 });
    expect(estimate(100_000, '0.85')).toEqual({ profit: 85_000, payout: 185_000 });
    // 10.01 × 0.85 = 8.5085 → 8.50
    expect(estimate(1001, '0.85')).toEqual({ profit: 850, payout: 1851 });
    expect(estimate(1000, '0.875')).toEqual({ profit: 875, payout: 1875 });
    expect(estimate(0, '0.9')).toEqual({ profit: 0, payout: 0 });
  });
});

describe('what an open order would pay now', () => {
  it('compares prices exactly whatever their decimals', () => {
    expect(comparePrices('67000.5', '67000.50')).toBe(0);
    expect(comparePrices('67000.51', '67000.5')).toBe(1);
    expect(comparePrices('0.99', '1')).toBe(-1);
  });

  it('pays a win, refunds a draw, pays nothing on a loss', () => {
    expect(outcomeAt('up', '100.00', '100.01')).toBe('won');
    expect(outcomeAt('down', '100.00', '100.01')).toBe('lost');
    expect(outcomeAt('down', '100.00', '99.99')).toBe('won');
    expect(outcomeAt('up', '100.00', '100')).toBe('draw');
    expect(payoutAt(order('up'), '67000.51')).toBe(180_000);
    expect(payoutAt(order('up'), '67000.49')).toBe(0);
    expect(payoutAt(order('down'), '67000.49')).toBe(180_000);
    expect(payoutAt(order('down'), '67000.50')).toBe(100_000);
    expect(payoutAt(order('up'), 'not a price')).toBeNull();
  });

  it('says nothing while the order waits for its entry tick', () => {
    expect(payoutAt({ ...order('up'), entry: null }, '67000.51')).toBeNull();
  });
});

describe('order formats', () => {
  it('shows rates as percentages and durations in seconds or minutes', () => {
    expect(formatRate('0.85', 'en')).toBe('85%');
    expect(formatRate('0.875', 'en')).toBe('87.5%');
    expect(durationUnit(30)).toEqual({ unit: 'seconds', value: 30 });
    expect(durationUnit(90)).toEqual({ unit: 'seconds', value: 90 });
    expect(durationUnit(300)).toEqual({ unit: 'minutes', value: 5 });
  });
});
