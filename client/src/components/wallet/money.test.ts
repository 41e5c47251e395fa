import { describe, expect, it } from 'vitest';
import { convertAtRate, groupedDigits, maskTail, newIdempotencyKey } from './money';

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
