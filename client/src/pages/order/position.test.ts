import { describe, expect, it } from 'vitest';
import { pnlIfEndedNow, timeLeftShare } from './position';

const up = {
  direction: 'up' as const,
  amount: 10_000,
  rate: '0.90',
  entry: { seq: 1, ts: 0, price: '100.00' },
};

describe('what an open order would make if it ended now', () => {
  it('is the profit on a win, zero on a draw, minus the amount on a loss', () => {
    expect(pnlIfEndedNow(up, '100.01')).toBe(9_000);
    expect(pnlIfEndedNow(up, '100.0')).toBe(0);
    expect(pnlIfEndedNow(up, '99.99')).toBe(-10_000);
    expect(pnlIfEndedNow({ ...up, direction: 'down' }, '99.99')).toBe(9_000);
  });

  it('is unknown without a price or before the entry tick', () => {
    expect(pnlIfEndedNow(up, null)).toBeNull();
    expect(pnlIfEndedNow({ ...up, entry: null }, '101')).toBeNull();
  });
});

describe('the time bar', () => {
  const order = { createdAt: 1_000, expiresAt: 31_000 };
  it('shrinks from 1 to 0 over the order’s time and stays within bounds', () => {
    expect(timeLeftShare(order, 1_000)).toBe(1);
    expect(timeLeftShare(order, 16_000)).toBe(0.5);
    expect(timeLeftShare(order, 31_000)).toBe(0);
    expect(timeLeftShare(order, 40_000)).toBe(0);
    expect(timeLeftShare(order, 0)).toBe(1);
    expect(timeLeftShare({ createdAt: 5, expiresAt: 5 }, 5)).toBe(0);
  });
});
