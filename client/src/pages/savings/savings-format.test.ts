import { describe, expect, it } from 'vitest';
import { formatMovement, formatRate } from './savings-format';

describe('savings figures', () => {
  it('shows minor units with two decimals, grouped the language’s way', () => {
    expect(formatMovement(500_050, 'en')).toBe('5,000.50');
    expect(formatMovement(5, 'zh-CN')).toBe('0.05');
    expect(formatMovement(123_456_789, 'de')).toBe('1.234.567,89');
    expect(formatMovement(10, 'en', '+')).toBe('+0.10');
    expect(formatMovement(3000, 'en', '-')).toBe('−30.00');
  });

  it('shows the rate as an exact percentage', () => {
    expect(formatRate('0.0365', 'en')).toBe('3.65%');
    expect(formatRate('0.04735', 'en')).toBe('4.735%');
    expect(formatRate('0.05', 'fr')).toMatch(/^5,00\s?%$/);
    expect(formatRate('bad', 'en')).toBe('--');
  });
});
