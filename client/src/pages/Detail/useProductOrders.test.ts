import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import { merged } from './useProductOrders';

const order = (id: string, over: Partial<Order> = {}): Order => ({
  id,
  mode: 'real',
  productId: 'BTCUSDT',
  direction: 'up',
  amount: 10_000,
  duration: 30,
  expiry: null,
  rate: '0.9',
  status: 'open',
  entry: { seq: 1, ts: 1_000, price: '1.00' },
  exit: null,
  payout: null,
  pnl: null,
  createdAt: 1_000,
  expiresAt: 31_000,
  settledAt: null,
  voidReason: null,
  sale: null,
  ...over,
});
const page = (items: Order[]) => ({ items, nextCursor: null });
const ids = (list: { items: readonly Order[] }) => list.items.map((o) => o.id);

describe("the detail page's positions: a read with the events since", () => {
  it('shows events before the first read, and adds those that came during a read', () => {
    const events = [{ at: 5, order: order('2') }];
    expect(ids(merged('positions', null, events))).toEqual(['2']);
    expect(ids(merged('positions', { startedAt: 4, page: page([order('1')]) }, events))).toEqual([
      '2',
      '1',
    ]);
  });
  it('does not bring back a position the read no longer has (settled while the socket was away)', () => {
    const events = [{ at: 5, order: order('2') }];
    expect(ids(merged('positions', { startedAt: 10, page: page([order('1')]) }, events))).toEqual([
      '1',
    ]);
  });
  it('takes a settlement that came after the read off the positions', () => {
    const events = [{ at: 20, order: order('1', { status: 'won' }) }];
    expect(ids(merged('positions', { startedAt: 10, page: page([order('1')]) }, events))).toEqual(
      [],
    );
    expect(ids(merged('history', { startedAt: 10, page: page([]) }, events))).toEqual(['1']);
  });
});
