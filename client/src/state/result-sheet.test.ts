import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@shared/orders/model';
import {
  acknowledge,
  clearResults,
  closeSheet,
  dismissToast,
  forgetUnseen,
  holdToast,
  openSheet,
  receiveResult,
  resultOpened,
  setAcknowledgementSink,
  sheetSnapshot,
  TOAST_MS,
} from './result-sheet';

const order = (id: string, status: Order['status']): Order => ({
  id,
  mode: 'real',
  productId: 'BTCUSDT',
  direction: 'up',
  amount: 10_000,
  duration: 30,
  expiry: null,
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
  sale: null,
});

describe('results state: toast, unseen, list', () => {
  let acknowledged: string[][];
  beforeEach(() => {
    vi.useFakeTimers();
    clearResults();
    acknowledged = [];
    setAcknowledgementSink((ids) => acknowledged.push(ids));
  });
  afterEach(() => vi.useRealTimers());

  it('takes a final order once, ignores open ones, toasts it and counts it as new', () => {
    expect(receiveResult(order('1', 'open'))).toBe(false);
    expect(receiveResult(order('1', 'won'))).toBe(true);
    expect(receiveResult(order('1', 'won'))).toBe(false);
    expect(sheetSnapshot()).toEqual({ ids: ['1'], unseen: ['1'], toast: ['1'], open: false });
  });

  it('hides the toast by itself, not while held, without acknowledging', () => {
    receiveResult(order('1', 'won'));
    holdToast(true);
    vi.advanceTimersByTime(60_000);
    expect(sheetSnapshot().toast).toEqual(['1']);
    holdToast(false);
    vi.advanceTimersByTime(TOAST_MS);
    expect(sheetSnapshot()).toMatchObject({ toast: [], unseen: ['1'] });
    expect(acknowledged).toEqual([]);
  });

  it('stacks results that settle together on one toast, newest first', () => {
    receiveResult(order('1', 'won'));
    vi.advanceTimersByTime(TOAST_MS - 100);
    receiveResult(order('2', 'lost'));
    vi.advanceTimersByTime(TOAST_MS - 100);
    expect(sheetSnapshot().toast).toEqual(['2', '1']);
    vi.advanceTimersByTime(100);
    expect(sheetSnapshot().toast).toEqual([]);
  });

  it('a result known elsewhere joins the list without toasting', () => {
    receiveResult(order('1', 'won'), { toast: false });
    expect(sheetSnapshot()).toMatchObject({ ids: ['1'], unseen: ['1'], toast: [] });
  });

  it('dismissing the toast acknowledges its results, once', () => {
    receiveResult(order('1', 'won'));
    receiveResult(order('2', 'lost'));
    dismissToast();
    expect(acknowledged).toEqual([['2', '1']]);
    expect(sheetSnapshot()).toMatchObject({ toast: [], unseen: [], ids: ['2', '1'] });
    acknowledge(['1', '2']);
    expect(acknowledged).toHaveLength(1);
  });

  it('opening the list acknowledges everything on it; opening a result acknowledges it', () => {
    receiveResult(order('1', 'won'));
    openSheet();
    expect(sheetSnapshot()).toMatchObject({ open: true, toast: [], unseen: [] });
    expect(acknowledged).toEqual([['1']]);
    closeSheet();
    receiveResult(order('2', 'lost'));
    resultOpened('2');
    expect(acknowledged).toEqual([['1'], ['2']]);
    expect(sheetSnapshot()).toMatchObject({ open: false, toast: [], unseen: [] });
  });

  it("another device's acknowledgement clears the toast and the count, sending nothing back", () => {
    receiveResult(order('1', 'won'));
    receiveResult(order('2', 'won'));
    forgetUnseen(['1']);
    expect(sheetSnapshot()).toMatchObject({ toast: ['2'], unseen: ['2'] });
    expect(acknowledged).toEqual([]);
  });

  it('is empty for the next user', () => {
    receiveResult(order('1', 'won'));
    clearResults();
    expect(sheetSnapshot()).toEqual({ ids: [], unseen: [], toast: [], open: false });
  });
});
