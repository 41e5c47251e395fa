import { describe, expect, it } from 'vitest';
import type { Product } from '@shared/product';
import { mergeLive } from './live-product';

function product(overrides: Partial<Product> = {}): Product {
  return {
    id: 'XAUUSD',
    name: 'XAU/USD',
    category: 'metals',
    precision: 2,
    status: 'open',
    durations: [],
    minStake: 1000,
    maxStake: 5_000_000,
    earlyClose: { annualVol: 0.6, spreadBp: 500, closesBeforeExpiryMs: 10_000 },
    last: { seq: 7, ts: 1000, price: '2350.10' },
    stats24h: {
      open: '2300.00',
      high: '2360.00',
      low: '2290.00',
      last: '2350.10',
      change: '50.10',
      changePct: '2.18',
      volume: '120.5',
      amount: '283000.00',
    },
    ...overrides,
  };
}

const item = {
  id: 'XAUUSD',
  price: '2351.00',
  changePct: '2.22',
  high: '2361.00',
  low: '2290.00',
  volume: '121.0',
  amount: '284000.00',
  status: 'open' as const,
};

describe('mergeLive', () => {
  it('uses the REST record until a snapshot arrives', () => {
    const live = mergeLive(product());
    expect(live).toMatchObject({ price: '2350.10', changePct: '2.18', high: '2360.00' });
    expect(mergeLive(product({ last: null })).price).toBeNull();
  });

  it('lets the snapshot override price, stats and status', () => {
    const live = mergeLive(product(), { ...item, status: 'closed' });
    expect(live).toMatchObject({
      price: '2351.00',
      changePct: '2.22',
      high: '2361.00',
      volume: '121.0',
      amount: '284000.00',
      status: 'closed',
    });
  });

  it('takes the opening time from a matching product event', () => {
    const live = mergeLive(
      product(),
      { ...item, status: 'maintenance' },
      { id: 'XAUUSD', status: 'maintenance', opensAt: 5000 },
    );
    expect(live).toMatchObject({ status: 'maintenance', opensAt: 5000 });
  });

  it('keeps the REST opening time while the status is unchanged', () => {
    const live = mergeLive(product({ status: 'closed', opensAt: 9000 }), {
      ...item,
      status: 'closed',
    });
    expect(live.opensAt).toBe(9000);
  });

  it('drops an opening time that belongs to another status', () => {
    const rest = product({ status: 'closed', opensAt: 9000 });
    expect(mergeLive(rest, { ...item, status: 'maintenance' }).opensAt).toBeUndefined();
    expect(mergeLive(rest, item).opensAt).toBeUndefined();
    expect(
      mergeLive(
        product(),
        { ...item, status: 'closed' },
        { id: 'XAUUSD', status: 'maintenance', opensAt: 1 },
      ).opensAt,
    ).toBeUndefined();
  });
});

describe('bestRate', () => {
  it('is the highest rate of the ladder, compared as numbers, and null without durations', () => {
    const ladder = [
      { seconds: 30, rate: '0.85' },
      { seconds: 60, rate: '0.9' },
      { seconds: 300, rate: '0.875' },
    ];
    expect(mergeLive(product({ durations: ladder })).bestRate).toBe('0.9');
    expect(mergeLive(product()).bestRate).toBeNull();
  });
});
