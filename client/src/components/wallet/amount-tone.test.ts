import { describe, expect, it } from 'vitest';
import { amountTone } from './amount-tone';

describe('amountTone', () => {
  it('colours credits up and order debits down', () => {
    expect(amountTone('order_payout', 18500)).toBe('up');
    expect(amountTone('order_sale', 7255)).toBe('up');
    expect(amountTone('deposit', 100)).toBe('up');
    expect(amountTone('order_stake', -10000)).toBe('down');
  });

  it('leaves debits that are not market moves in plain text', () => {
    expect(amountTone('withdraw_hold', -5000)).toBe('neutral');
    expect(amountTone('savings_in', -100)).toBe('neutral');
    expect(amountTone('withdraw_paid', -1)).toBe('neutral');
  });

  it('gives a zero amount no colour', () => {
    expect(amountTone('order_loss', 0)).toBe('');
  });
});
