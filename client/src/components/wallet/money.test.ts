import { describe, expect, it } from 'vitest';
import {
  convertAtRate,
  formatMoney,
  formatSignedMoney,
  groupedDigits,
  maskTail,
  newIdempotencyKey,
} from './money';

describe('money formatting', () => {
  it('shows minor units with two decimals, per language', () => {
    expect(formatMoney(123456, 'en')).toBe('1,234.56');
    expect(formatMoney(123456, 'de')).toBe('1.234,56');
    expect(formatMoney(5, 'zh-CN')).toBe('0.05');
    expect(formatMoney(0, 'en')).toBe('0.00');
  });

  it('signs movements, leaving zero unsigned', () => {
    expect(formatSignedMoney(1000, 'en')).toBe('+10.00');
    expect(formatSignedMoney(-550, 'en')).toBe('-5.50');
    expect(formatSignedMoney(0, 'en')).toBe('0.00');
  });

  it('is exact beyond float precision', () => {
    expect(formatMoney(900719925474099, 'en')).toBe('9,007,199,254,740.99');
  });
});

describe('USDT conversion', () => {
  it('credits quantity × rate rounded down, as the server does', () => {
    expect(convertAtRate(10000, '1')).toBe(10000);
    expect(convertAtRate(10001, '7.25')).toBe(72507);
    expect(convertAtRate(3, '0.5')).toBe(1);
  });
});

describe('helpers', () => {
  it('masks the middle of long numbers', () => {
    expect(maskTail('6222 0200 1234 5678')).toBe('6222 •••• 5678');
    expect(maskTail('12345678')).toBe('12345678');
  });

  it('groups card numbers by four, leaving anything else as it is', () => {
    expect(groupedDigits('6222020000000000000')).toBe('6222 0200 0000 0000 000');
    expect(groupedDigits('1234')).toBe('1234');
    expect(groupedDigits('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
    expect(groupedDigits('TXyZ7aBc')).toBe('TXyZ7aBc');
    expect(groupedDigits('')).toBe('');
  });

  it('makes distinct 32-hex-digit idempotency keys', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});
