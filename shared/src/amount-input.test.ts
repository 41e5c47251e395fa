import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AMOUNT_MAX,
  amountToMinor,
  checkTypedAmount,
  cleanAmountInput,
  minorToDecimal,
  sanitizeAmountInput,
  validators,
} from './amount-input';

describe('amount input rule (spec §5)', () => {
  it.each([
    ['12.345', '12.34'],
    ['1a2b.5c', '12.5'],
    ['1.2.3', '1.23'],
    ['0', '1'],
    ['0.00', '1'],
    ['-5', '5'],
    ['', ''],
    ['12.', '12.'],
    ['.5', '0.5'],
    ['0.0', '0.0'],
    ['0.05', '0.05'],
    ['007', '7'],
    ['1000000', String(AMOUNT_MAX)],
    ['999999.99', String(AMOUNT_MAX)],
    ['999999', '999999'],
  ])('%s becomes %s', (raw, out) => {
    expect(sanitizeAmountInput(raw)).toBe(out);
  });

  it('honours another maximum', () => {
    expect(sanitizeAmountInput('600', 500)).toBe('500');
  });

  it('always yields digits with one dot and at most two decimals, never above the maximum', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const s = sanitizeAmountInput(raw);
        expect(s).toMatch(/^\d*(\.\d{0,2})?$/);
        if (amountToMinor(s) !== null) expect(Number(s)).toBeLessThanOrEqual(AMOUNT_MAX);
        // Applying the rule twice changes nothing.
        expect(sanitizeAmountInput(s)).toBe(s);
      }),
    );
  });

  it('converts to and from minor units exactly', () => {
    expect(amountToMinor('10.5')).toBe(1050);
    expect(amountToMinor('0.07')).toBe(7);
    expect(amountToMinor('12.')).toBeNull();
    expect(amountToMinor('')).toBeNull();
    expect(minorToDecimal(1050)).toBe('10.50');
    expect(minorToDecimal(-7)).toBe('-0.07');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), (n) => {
        expect(amountToMinor(minorToDecimal(n))).toBe(n);
      }),
    );
  });

  it('keeps the spec helpers', () => {
    expect(validators.userId('abc_123')).toBe(true);
    expect(validators.userId('abc')).toBe(false);
    expect(validators.chineseIdCard('11010519491231002X')).toBe(true);
    expect(validators.chineseIdCard('1234')).toBe(false);
    expect(validators.mainlandPhone('13800138000')).toBe(true);
    expect(validators.mainlandPhone('23800138000')).toBe(false);
    expect(validators.checkCode('1234')).toBe(true);
    expect(validators.email('a@b.co')).toBe(true);
    expect(validators.chineseName('张三')).toBe(true);
  });
});

describe('an amount checked as it is typed (issue 37)', () => {
  const limits = { min: 1_000, max: 5_000_000, balance: 123_400 };

  it('keeps what is typed: no clamping, no cut decimals; a comma is the decimal point', () => {
    expect(cleanAmountInput('99999999')).toBe('99999999');
    expect(cleanAmountInput('12.345')).toBe('12.345');
    expect(cleanAmountInput('10,5')).toBe('10.5');
    expect(cleanAmountInput('1.2.3')).toBe('1.23');
    expect(cleanAmountInput('007')).toBe('7');
    expect(cleanAmountInput('.5')).toBe('0.5');
    expect(cleanAmountInput('a1 000b')).toBe('1000');
    expect(cleanAmountInput('1234567890123456')).toBe('123456789012');
  });

  it.each([
    ['', { state: 'empty' }],
    ['.', { state: 'empty' }],
    ['12.345', { state: 'invalid', problem: 'decimals', limit: 2 }],
    ['5', { state: 'invalid', problem: 'min', limit: 1_000 }],
    ['0', { state: 'invalid', problem: 'min', limit: 1_000 }],
    ['99999999', { state: 'invalid', problem: 'max', limit: 5_000_000 }],
    ['1234.01', { state: 'invalid', problem: 'balance', limit: 123_400 }],
    ['1234', { state: 'valid', amount: 123_400 }],
    ['10', { state: 'valid', amount: 1_000 }],
    ['12.', { state: 'valid', amount: 1_200 }],
    ['12.5', { state: 'valid', amount: 1_250 }],
  ])('%j is %j', (input, expected) => {
    expect(checkTypedAmount(input, limits)).toEqual(expected);
  });

  it('names the maximum before the balance, and leaves the balance out while it is unknown', () => {
    expect(checkTypedAmount('60000', { ...limits, balance: 0 })).toMatchObject({ problem: 'max' });
    expect(checkTypedAmount('40000', { ...limits, balance: null })).toEqual({
      state: 'valid',
      amount: 4_000_000,
    });
  });
});
