import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import { groupLabels, pnlNow, type LabelItem } from './position-groups';

const item = (id: string, x: number, y: number, pnl: number | null = 850): LabelItem => ({
  id,
  x,
  y,
  direction: 'up',
  stake: 1000,
  pnl,
});

describe('position labels on the chart', () => {
  it('keeps one label per position when they are apart', () => {
    const groups = groupLabels([item('a', 100, 50), item('b', 100, 120), item('c', 300, 50)]);
    expect(groups.map((g) => g.ids)).toEqual([['a'], ['c'], ['b']]);
    expect(groups[0]).toMatchObject({ count: 1, stake: 1000, pnl: 850, direction: 'up' });
  });

  it('merges five trades at the same place into one label with their stake and P&L', () => {
    const five = [0, 1, 2, 3, 4].map((i) => ({
      ...item(`o${i}`, 200 + i, 80 + i * 2, i % 2 ? -1000 : 850),
      direction: i % 2 ? ('down' as const) : ('up' as const),
    }));
    const [group, ...rest] = groupLabels(five);
    expect(rest).toEqual([]);
    expect(group).toMatchObject({
      count: 5,
      stake: 5000,
      pnl: 3 * 850 - 2 * 1000,
      direction: 'mixed',
      x: 200,
    });
    expect(group!.ids.sort()).toEqual(['o0', 'o1', 'o2', 'o3', 'o4']);
  });

  it('merges again when a merged label comes to overlap another', () => {
    // a and b merge at y 20; the merged label then meets c at y 40 (within 24 px).
    const groups = groupLabels([item('a', 0, 10), item('b', 0, 30), item('c', 0, 42)]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.count).toBe(3);
  });

  it('has no P&L for a group while one of its positions has none yet', () => {
    const [group] = groupLabels([item('a', 0, 0), item('b', 0, 5, null)]);
    expect(group!.pnl).toBeNull();
  });

  it('counts P&L as the payout less the stake: a win, a loss, a tie, no entry', () => {
    const order: Pick<Order, 'direction' | 'amount' | 'rate' | 'entry'> = {
      direction: 'up',
      amount: 1000,
      rate: '0.85',
      entry: { price: '100.00', ts: 0, seq: 1 },
    };
    expect(pnlNow(order, '100.50')).toBe(850);
    expect(pnlNow(order, '99.50')).toBe(-1000);
    expect(pnlNow(order, '100.00')).toBe(0);
    expect(pnlNow(order, null)).toBeNull();
    expect(pnlNow({ ...order, entry: null }, '101.00')).toBeNull();
  });
});
