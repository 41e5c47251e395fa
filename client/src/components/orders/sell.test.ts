import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/orders/model';
import { sellValue } from '@shared/orders/sell-value';
import { recomputeSale, sellBody, sellState, sellValueAt } from './sell';

const terms = { annualVol: 0.6, spreadBp: 500, closesBeforeExpiryMs: 10_000 };
const NOW = 1_000_000;

const order = (over: Partial<Order> = {}): Order => ({
  id: '1',
  mode: 'real',
  productId: 'BTCUSDT',
  direction: 'up',
  amount: 10_000,
  duration: 300,
  expiry: null,
  rate: '0.85',
  status: 'open',
  entry: { seq: 1, ts: NOW - 60_000, price: '67000.50' },
  exit: null,
  payout: null,
  pnl: null,
  createdAt: NOW - 61_000,
  expiresAt: NOW + 240_000,
  settledAt: null,
  voidReason: null,
  sale: null,
  ...over,
});

const live = { price: '67010.00', now: NOW, offline: false, terms };

describe('the live sell value', () => {
  it('is the published formula at the latest price with the time left on the server clock', () => {
    const state = sellState(order(), live);
    expect(state.blocked).toBeNull();
    expect(state.value).toBe(
      sellValue({
        direction: 'up',
        amount: 10_000,
        rateBp: 8_500,
        entryPrice: 6_700_050,
        price: 6_701_000,
        msLeft: 240_000,
        annualVol: 0.6,
        spreadBp: 500,
      }),
    );
    // In the money: worth more than half the payout, less than all of it.
    expect(state.value).toBeGreaterThan(18_500 / 2);
    expect(state.value).toBeLessThan(18_500);
  });

  it('moves with the price: up gains when the price rises, down loses', () => {
    const higher = sellState(order(), { ...live, price: '67100.00' }).value!;
    const lower = sellState(order(), { ...live, price: '66900.00' }).value!;
    expect(higher).toBeGreaterThan(lower);
    const down = order({ direction: 'down' });
    expect(sellState(down, { ...live, price: '67100.00' }).value!).toBeLessThan(
      sellState(down, { ...live, price: '66900.00' }).value!,
    );
  });

  it('does not depend on how many decimals the prices are written with', () => {
    expect(sellValueAt(order(), '67010', 240_000, terms)).toBe(
      sellValueAt(order(), '67010.000', 240_000, terms),
    );
  });
});

describe('when a position can be sold', () => {
  it('not while it waits for its entry tick', () => {
    expect(sellState(order({ entry: null }), live)).toEqual({ value: null, blocked: 'entry' });
  });

  it("not in the product's last stretch before expiry (its edge included)", () => {
    const atEdge = order({ expiresAt: NOW + 10_000 });
    expect(sellState(atEdge, live).blocked).toBe('closing');
    expect(sellState(order({ expiresAt: NOW + 10_001 }), live).blocked).toBeNull();
    expect(sellState(order({ expiresAt: NOW - 1 }), live).blocked).toBe('closing');
  });

  it('not without a live price: offline, a silent feed, or none yet', () => {
    const offline = sellState(order(), { ...live, offline: true });
    expect(offline.blocked).toBe('stale');
    expect(offline.value).not.toBeNull(); // still shown, greyed, never sendable
    expect(sellState(order(), { ...live, price: null })).toEqual({ value: null, blocked: 'stale' });
    expect(sellState(order(), { ...live, terms: undefined }).blocked).toBe('stale');
  });
});

describe('what a tap sends', () => {
  it('the value shown, and 1 % of it as the tolerance, at least 1 cent', () => {
    expect(sellBody(7_255)).toEqual({ expected: 7_255, tolerance: 72 });
    expect(sellBody(10_000)).toEqual({ expected: 10_000, tolerance: 100 });
    expect(sellBody(50)).toEqual({ expected: 50, tolerance: 1 });
    expect(sellBody(0)).toEqual({ expected: 0, tolerance: 1 });
  });
});

describe('a sold order recomputed from its recorded inputs', () => {
  it('gives the value from the sale tick, the time left, σ and the spread', () => {
    const sale = { requestedAt: NOW, msLeft: 123_456, annualVol: 0.6, spreadBp: 500, value: 0 };
    const exit = { seq: 9, ts: NOW + 400, price: '66990.25' };
    const expected = sellValueAt(order(), exit.price, sale.msLeft, terms)!;
    expect(recomputeSale(order({ status: 'sold', exit, sale }))).toBe(expected);
    expect(expected).toBeGreaterThan(0);
    expect(recomputeSale(order())).toBeNull();
  });
});
