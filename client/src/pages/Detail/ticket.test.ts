import { describe, expect, it } from 'vitest';
import { cleanAmountInput } from '@shared/amount-input';
import type { PlaceOrderBody } from '@shared/orders/model';
import { ApiError } from '@client/api/client';
import { attemptFor, checkAmount, newIdempotencyKey, outcomeUnknown, pickDuration } from './ticket';

const bounds = { minStake: 1_000, maxStake: 5_000_000 }; // 10.00 … 50 000.00

describe('amount check', () => {
  it('accepts amounts within the stake bounds and the balance', () => {
    expect(checkAmount('1000', bounds, 500_000)).toEqual({ ok: true, amount: 100_000 });
    expect(checkAmount('10', bounds, null)).toEqual({ ok: true, amount: 1_000 });
    expect(checkAmount('50000.00', bounds, null)).toEqual({ ok: true, amount: 5_000_000 });
  });
  it('refuses unfinished, out-of-range and unaffordable amounts', () => {
    expect(checkAmount('', bounds, null)).toEqual({ ok: false, reason: 'empty' });
    expect(checkAmount('.', bounds, null)).toEqual({ ok: false, reason: 'empty' });
    expect(checkAmount('9.99', bounds, null)).toEqual({ ok: false, reason: 'outOfRange' });
    expect(checkAmount('12.345', bounds, null)).toEqual({ ok: false, reason: 'outOfRange' });
    expect(checkAmount('50000.01', bounds, null)).toEqual({ ok: false, reason: 'outOfRange' });
    expect(checkAmount('100', bounds, 9_999)).toEqual({ ok: false, reason: 'insufficient' });
  });
  it('takes "12." as 12.00, and what is typed is never clamped (issue 37)', () => {
    expect(checkAmount('12.', bounds, null)).toEqual({ ok: true, amount: 1_200 });
    expect(cleanAmountInput('99999')).toBe('99999');
    expect(checkAmount(cleanAmountInput('99999'), bounds, null)).toEqual({
      ok: false,
      reason: 'outOfRange',
    });
  });
});

describe('durations', () => {
  const ladder = [
    { seconds: 30, rate: '0.8' },
    { seconds: 60, rate: '0.85' },
  ];
  it('keeps the chosen duration while offered, else takes the first', () => {
    expect(pickDuration(ladder, 60)).toEqual(ladder[1]);
    expect(pickDuration(ladder, 120)).toEqual(ladder[0]);
    expect(pickDuration(ladder, null)).toEqual(ladder[0]);
    expect(pickDuration([], null)).toBeNull();
  });
});

describe('idempotency of a purchase', () => {
  const body: PlaceOrderBody = {
    productId: 'BTCUSDT',
    direction: 'up',
    amount: 100_000,
    duration: 30,
    mode: 'real',
    rate: '0.8',
  };
  let n = 0;
  const key = () => `k${++n}`;

  it('makes 128-bit random keys', () => {
    expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{32}$/);
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
  });

  it('reuses the key of an unfinished attempt for the same order, and only for it', () => {
    const first = attemptFor(null, body, key);
    expect(attemptFor(first, { ...body }, key)).toBe(first);
    expect(attemptFor(first, { ...body, amount: 200_000 }, key).key).not.toBe(first.key);
    expect(attemptFor(first, { ...body, direction: 'down' }, key).key).not.toBe(first.key);
    expect(attemptFor(first, { ...body, rate: '0.85' }, key).key).not.toBe(first.key);
    // The same order in practice money is another order.
    expect(attemptFor(first, { ...body, mode: 'practice' }, key).key).not.toBe(first.key);
  });

  it('keeps an attempt whose outcome is unknown, and drops a refused one', () => {
    expect(outcomeUnknown(new ApiError('NETWORK', 'down'))).toBe(true);
    expect(outcomeUnknown(new ApiError('TIMEOUT', 'slow'))).toBe(true);
    expect(outcomeUnknown(new ApiError('INTERNAL', 'oops', 500))).toBe(true);
    expect(outcomeUnknown(new ApiError('RATE_CHANGED', 'now 0.85', 409))).toBe(false);
    expect(outcomeUnknown(new ApiError('AMOUNT_OUT_OF_RANGE', 'no', 400))).toBe(false);
  });
});
