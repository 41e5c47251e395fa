import { describe, expect, it } from 'vitest';
import { formatMoney, formatRate } from './savings-format';

describe('savings figures', () => {
  it('shows minor units with two decimals, grouped the language’s way', () => {
    expect(formatMoney(500_050, 'en')).toBe('5,000.50');
    expect(formatMoney(5, 'zh-CN')).toBe('0.05');
    expect(formatMoney(123_456_789, 'de')).toBe('1.234.567,89');
    expect(formatMoney(10, 'en', '+')).toBe('+0.10');
    expect(formatMoney(3000, 'en', '-')).toBe('−30.00');
  });

  it('shows the rate as an exact percentage', () => {
    expect(formatRate('0.0365', 'en')).toBe('3.65%');
    expect(formatRate('0.04735', 'en')).toBe('4.735%');
    expect(formatRate('0.05', 'fr')).toMatch(/^5,00\s?%$/);
    expect(formatRate('bad', 'en')).toBe('--');
  });
});
