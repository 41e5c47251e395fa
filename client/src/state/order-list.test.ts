import { describe, expect, it } from 'vitest';
import type { Order, OrderStatus } from '@shared/orders/model';
import {
  addPage,
  applyOrderEvent,
  compareIds,
  emptyOrderList,
  firstPage,
  overdueOrders,
  type OrderList,
  type OrderTab,
} from './order-list';

const order = (id: number, status: OrderStatus = 'open', expiresAt = 30_000): Order => ({
  id: String(id),
  mode: 'real',
  productId: 'BTCUSDT',
  direction: 'up',
  amount: 100_000,
  duration: 30,
  expiry: null,
  rate: '0.8',
  status,
  entry: { seq: id, ts: 0, price: '100.00' },
  exit: status === 'open' ? null : { seq: id + 1, ts: expiresAt, price: '101.00' },
  payout: status === 'open' ? null : 180_000,
  pnl: status === 'open' ? null : 80_000,
  createdAt: 0,
  expiresAt,
  settledAt: status === 'open' ? null : expiresAt + 100,
  voidReason: null,
  sale: null,
});
const ids = (list: OrderList) => list.items.map((o) => `${o.id}:${o.status}`);
const page = (items: Order[], nextCursor: string | null = null) => ({ items, nextCursor });
const loaded = (tab: OrderTab, items: Order[], nextCursor: string | null = null) =>
  firstPage(emptyOrderList, tab, page(items, nextCursor));

describe('order ids', () => {
  it('compare as numbers', () => {
    expect(compareIds('10', '9')).toBeGreaterThan(0);
    expect(compareIds('9', '10')).toBeLessThan(0);
    expect(compareIds('123', '123')).toBe(0);
  });
});

describe('live order events', () => {
  it('a new order appears on top of records and positions, not history', () => {
    const placed = order(5);
    expect(ids(applyOrderEvent(loaded('records', [order(4, 'won')]), 'records', placed))).toEqual([
      '5:open',
      '4:won',
    ]);
    expect(ids(applyOrderEvent(loaded('positions', [order(3)]), 'positions', placed))).toEqual([
      '5:open',
      '3:open',
    ]);
    expect(ids(applyOrderEvent(loaded('history', [order(4, 'won')]), 'history', placed))).toEqual([
      '4:won',
    ]);
  });

  it('a settled order leaves positions and enters history in its place by id', () => {
    const settled = order(4, 'lost');
    expect(
      ids(applyOrderEvent(loaded('positions', [order(5), order(4)]), 'positions', settled)),
    ).toEqual(['5:open']);
    expect(
      ids(
        applyOrderEvent(loaded('history', [order(6, 'won'), order(2, 'draw')]), 'history', settled),
      ),
    ).toEqual(['6:won', '4:lost', '2:draw']);
    expect(
      ids(applyOrderEvent(loaded('records', [order(5), order(4)]), 'records', settled)),
    ).toEqual(['5:open', '4:lost']);
  });

  it('a settlement is never undone by a late "open" event or page', () => {
    let list = loaded('records', [order(4)]);
    list = applyOrderEvent(list, 'records', order(4, 'won'));
    list = applyOrderEvent(list, 'records', order(4));
    expect(ids(list)).toEqual(['4:won']);

    let positions = loaded('positions', [order(4)]);
    positions = applyOrderEvent(positions, 'positions', order(4, 'void'));
    // A page read before the settlement still lists it as open.
    positions = addPage(positions, 'positions', page([order(4)]));
    expect(ids(positions)).toEqual([]);
    positions = firstPage(positions, 'positions', page([order(4)]));
    expect(ids(positions)).toEqual([]);
  });

  it('fills in the entry when its event comes, and a late placement event or page cannot take it away', () => {
    const waiting = { ...order(4), entry: null };
    const entered = order(4);
    let positions = loaded('positions', [waiting]);
    expect(positions.items[0]!.entry).toBeNull();
    positions = applyOrderEvent(positions, 'positions', entered);
    expect(positions.items[0]!.entry).toEqual(entered.entry);
    // The placement's event (from the api) can arrive after the entry's (from a worker).
    positions = applyOrderEvent(positions, 'positions', waiting);
    positions = addPage(positions, 'positions', page([waiting]));
    expect(positions.items).toEqual([entered]);
    // The entry event can even come first of all.
    let records = applyOrderEvent(loaded('records', []), 'records', entered);
    records = applyOrderEvent(records, 'records', waiting);
    expect(records.items).toEqual([entered]);
  });

  it('leaves an order beyond the loaded pages to the page that brings it (no duplicates)', () => {
    let history = loaded('history', [order(9, 'won'), order(8, 'won')], '8');
    history = applyOrderEvent(history, 'history', order(3, 'lost'));
    expect(ids(history)).toEqual(['9:won', '8:won']);
    history = addPage(history, 'history', page([order(3, 'lost'), order(2, 'won')]));
    expect(ids(history)).toEqual(['9:won', '8:won', '3:lost', '2:won']);
    expect(history.nextCursor).toBeNull();
    // All pages in: an old order's settlement is shown at once.
    history = applyOrderEvent(history, 'history', order(1, 'draw'));
    expect(ids(history)).toEqual(['9:won', '8:won', '3:lost', '2:won', '1:draw']);
  });

  it('does not repeat an order that is both in an event and a page', () => {
    let list = loaded('records', [order(10), order(9)], '9');
    list = applyOrderEvent(list, 'records', order(11));
    list = addPage(list, 'records', page([order(9), order(8)], null));
    expect(ids(list)).toEqual(['11:open', '10:open', '9:open', '8:open']);
  });
});

describe('first page', () => {
  it('keeps events that arrived while it loaded', () => {
    // The page was read before order 7 was placed and before 5 settled.
    const list = firstPage(emptyOrderList, 'positions', page([order(6), order(5)]), [
      order(7),
      order(5, 'won'),
    ]);
    expect(ids(list)).toEqual(['7:open', '6:open']);
    expect(list.loaded).toBe(true);
  });

  it('replaces what was there on a reload (orders settled while offline go)', () => {
    const before = loaded('positions', [order(6), order(5)]);
    const after = firstPage(before, 'positions', page([order(6)]));
    expect(ids(after)).toEqual(['6:open']);
  });

  it('says when there is nothing and when there is no more', () => {
    const none = loaded('history', []);
    expect(none.items).toEqual([]);
    expect(none.nextCursor).toBeNull();
    expect(none.loaded).toBe(true);
    expect(emptyOrderList.loaded).toBe(false);
  });
});

describe('overdue positions', () => {
  it('are open orders past expiry by more than the grace', () => {
    const items = [order(1, 'open', 10_000), order(2, 'open', 20_000), order(3, 'won', 0)];
    expect(overdueOrders(items, 15_001, 5_000).map((o) => o.id)).toEqual(['1']);
    expect(overdueOrders(items, 15_000, 5_000)).toEqual([]);
  });

  it('are also open orders still without an entry past acceptance by more than the grace', () => {
    const waiting = { ...order(4, 'open', 40_000), createdAt: 10_000, entry: null };
    const entered = { ...order(5, 'open', 40_000), createdAt: 10_000 };
    expect(overdueOrders([waiting, entered], 15_001, 5_000).map((o) => o.id)).toEqual(['4']);
    expect(overdueOrders([waiting, entered], 15_000, 5_000)).toEqual([]);
  });
});
