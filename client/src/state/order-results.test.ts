import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import { addResult, groupResults, MAX_RESULTS, pnlOf, type SettledResult } from './order-results';

const order = (id: string, over: Partial<Order> = {}): Order => ({
  id,
  mode: 'real',
  productId: 'BTCUSDT',
  direction: 'up',
  amount: 10_000,
  duration: 30,
  expiry: null,
  rate: '0.85',
  status: 'won',
  entry: { seq: 1, ts: 1_000, price: '100.00' },
  exit: { seq: 9, ts: 31_000, price: '101.00' },
  payout: 18_500,
  pnl: 8_500,
  createdAt: 999,
  expiresAt: 30_999,
  settledAt: 32_000,
  voidReason: null,
  sale: null,
  ...over,
});

describe('result sheet: adding settlements', () => {
  it('keeps final results only, newest first, each order once', () => {
    let list: readonly SettledResult[] = [];
    list = addResult(list, order('1', { status: 'open', payout: null, pnl: null }), 1);
    expect(list).toEqual([]);
    list = addResult(list, order('1'), 2);
    list = addResult(list, order('2', { status: 'lost', payout: 0, pnl: -10_000 }), 3);
    const again = addResult(list, order('1'), 4);
    expect(again).toBe(list);
    expect(list.map((r) => r.order.id)).toEqual(['2', '1']);
  });

  it('never grows past MAX_RESULTS: a burst keeps the newest', () => {
    let list: readonly SettledResult[] = [];
    for (let i = 1; i <= MAX_RESULTS + 5; i++) list = addResult(list, order(String(i)), i);
    expect(list).toHaveLength(MAX_RESULTS);
    expect(list[0]!.order.id).toBe(String(MAX_RESULTS + 5));
  });
});

describe('result sheet: grouping', () => {
  it('sums P&L per mode and counts each outcome', () => {
    const list = [
      order('1'), // +85.00
      order('2', { status: 'lost', payout: 0, pnl: -10_000 }),
      order('3', { status: 'draw', payout: 10_000, pnl: 0 }),
      order('4', { status: 'void', payout: 10_000, pnl: 0, voidReason: 'FEED_STALE' }),
      order('5', { mode: 'practice', pnl: 4_250, payout: 9_250, amount: 5_000 }),
    ].reduce<readonly SettledResult[]>((acc, o, i) => addResult(acc, o, i), []);
    const group = groupResults(list);
    expect(group.count).toBe(5);
    expect(group.byStatus).toEqual({ won: 2, lost: 1, draw: 1, void: 1, sold: 0 });
    expect(group.pnl).toEqual({ real: -1_500, practice: 4_250 });
  });

  it('has no practice total when only real orders settled', () => {
    const group = groupResults(addResult([], order('1'), 1));
    expect(group.pnl).toEqual({ real: 8_500 });
  });

  it('reads P&L as payout − amount when the server left it out', () => {
    expect(pnlOf(order('1', { pnl: null }))).toBe(8_500);
    expect(pnlOf(order('1', { status: 'lost', pnl: null, payout: 0 }))).toBe(-10_000);
  });
});
