import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@shared/orders';
import {
  clearResults,
  foldSheet,
  holdSheet,
  openSheet,
  receiveResult,
  sheetSnapshot,
} from './result-sheet';

const order = (id: string, status: Order['status']): Order => ({
  id,
  mode: 'real',
  productId: 'BTCUSDT',
  direction: 'up',
  amount: 10_000,
  duration: 30,
  rate: '0.85',
  status,
  entry: { seq: 1, ts: 1_000, price: '100.00' },
  exit: status === 'open' ? null : { seq: 9, ts: 31_000, price: '101.00' },
  payout: status === 'won' ? 18_500 : status === 'open' ? null : 0,
  pnl: status === 'won' ? 8_500 : status === 'open' ? null : -10_000,
  createdAt: 999,
  expiresAt: 30_999,
  settledAt: status === 'open' ? null : 32_000,
  voidReason: null,
});

describe('result sheet state', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    clearResults();
  });
  afterEach(() => vi.useRealTimers());

  it('takes a final order once, ignores open ones, and opens the sheet', () => {
    expect(receiveResult(order('1', 'open'))).toBe(false);
    expect(receiveResult(order('1', 'won'))).toBe(true);
    expect(receiveResult(order('1', 'won'))).toBe(false);
    expect(sheetSnapshot()).toEqual({ ids: ['1'], view: 'open' });
  });

  it('folds into the chip after a while, not while held, and opens again on a new result', () => {
    receiveResult(order('1', 'won'));
    holdSheet(true);
    vi.advanceTimersByTime(60_000);
    expect(sheetSnapshot().view).toBe('open');
    holdSheet(false);
    vi.advanceTimersByTime(8_000);
    expect(sheetSnapshot().view).toBe('folded');
    receiveResult(order('2', 'lost'));
    expect(sheetSnapshot()).toEqual({ ids: ['2', '1'], view: 'open' });
    foldSheet();
    expect(sheetSnapshot().view).toBe('folded');
    openSheet();
    expect(sheetSnapshot().view).toBe('open');
  });

  it('is empty once dismissed', () => {
    receiveResult(order('1', 'won'));
    clearResults();
    expect(sheetSnapshot().ids).toEqual([]);
  });
});
