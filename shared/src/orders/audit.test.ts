import { describe, expect, it } from 'vitest';
import { compareDecimals, expectedOutcome, payoutIfWon, type PublicTick } from './audit';

const order = {
  direction: 'up' as const,
  amount: 10_000,
  rate: '0.85',
  createdAt: 1_000_000,
  expiresAt: 1_030_000,
};
const tick = (seq: number, ts: number, price: string): PublicTick => ({ seq, ts, price });

describe('the published settlement rule, read from the tape', () => {
  it('compares decimals of any scale exactly', () => {
    expect(compareDecimals('67012.3', '67012.30')).toBe(0);
    expect(compareDecimals('0.1000000000000001', '0.1')).toBe(1);
    expect(compareDecimals('9007199254740993.5', '9007199254740993.4')).toBe(1);
    expect(compareDecimals('-1.5', '1.5')).toBe(-1);
  });

  it('pays stake + ⌊stake × rate⌋ on a win', () => {
    expect(payoutIfWon(10_000, '0.85')).toBe(18_500);
    expect(payoutIfWon(333, '0.85')).toBe(333 + 283); // 283.05 rounds down
    expect(payoutIfWon(1, '0.9999')).toBe(1);
  });

  it('enters at the first tick after acceptance, never at it, and exits at the last at or before expiry', () => {
    const tape = [
      tick(1, 1_000_000, '10.00'), // at acceptance: not an entry
      tick(3, 1_000_200, '10.05'),
      tick(2, 1_000_200, '10.01'), // same time, lower seq: the entry
      tick(4, 1_030_000, '10.02'), // at expiry: the exit
      tick(5, 1_030_001, '9.00'),
    ];
    expect(expectedOutcome(order, tape, 3000)).toEqual({
      status: 'won',
      entry: { seq: 2, ts: 1_000_200, price: '10.01' },
      exit: { seq: 4, ts: 1_030_000, price: '10.02' },
      payout: 18_500,
      pnl: 8_500,
      voidReason: null,
    });
    expect(expectedOutcome({ ...order, direction: 'down' }, tape, 3000)).toMatchObject({
      status: 'lost',
      payout: 0,
      pnl: -10_000,
    });
  });

  it('draws on an equal price and voids on a late entry or a stale exit', () => {
    const flat = [tick(1, 1_000_100, '10.0'), tick(2, 1_029_000, '10.00')];
    expect(expectedOutcome(order, flat, 3000)).toMatchObject({ status: 'draw', payout: 10_000 });
    const late = [tick(1, 1_003_001, '10.0'), tick(2, 1_029_000, '11')];
    expect(expectedOutcome(order, late, 3000)).toMatchObject({
      status: 'void',
      voidReason: 'NO_ENTRY_TICK',
      entry: null,
      payout: 10_000,
      pnl: 0,
    });
    // The entry window ends at the max feed delay: a tick exactly there still enters.
    expect(
      expectedOutcome(order, [tick(1, 1_003_000, '10'), tick(2, 1_029_999, '11')], 3000),
    ).toMatchObject({ status: 'won' });
    const stale = [tick(1, 1_000_100, '10.0'), tick(2, 1_026_999, '11')];
    expect(expectedOutcome(order, stale, 3000)).toMatchObject({
      status: 'void',
      voidReason: 'FEED_STALE',
      payout: 10_000,
    });
  });
});
