import { describe, expect, it } from 'vitest';
import {
  directionOf,
  formatChangePct,
  formatClock,
  formatCompact,
  formatDate,
  formatDateTime,
  formatDecimal,
  formatInteger,
  formatMoney,
  formatPrice,
  formatSignedMoney,
  percentToFraction,
  placeholder,
} from './format';

// Intl output uses narrow no-break spaces in some locales; compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatPrice', () => {
  it('keeps exactly the product precision and groups per language', () => {
    expect(formatPrice('67012.35', 2, 'en')).toBe('67,012.35');
    expect(formatPrice('67012.3', 2, 'en')).toBe('67,012.30');
    expect(plain(formatPrice('67012.35', 2, 'de'))).toBe('67.012,35');
    expect(plain(formatPrice('67012.35', 2, 'fr'))).toBe('67 012,35');
    expect(formatPrice('1.08345', 5, 'zh-CN')).toBe('1.08345');
    expect(formatPrice('150', 0, 'ja')).toBe('150');
  });

  it('formats long prices exactly, without float rounding', () => {
    expect(formatPrice('9007199254740993.5', 1, 'en')).toBe('9,007,199,254,740,993.5');
  });

  it('shows a placeholder for a missing or malformed price', () => {
    expect(formatPrice(null, 2, 'en')).toBe(placeholder);
    expect(formatPrice('abc', 2, 'en')).toBe(placeholder);
  });
});

describe('formatChangePct', () => {
  it('signs the change so colour is never the only cue', () => {
    expect(formatChangePct('1.23', 'en')).toBe('+1.23%');
    expect(formatChangePct('-0.50', 'en')).toBe('-0.50%');
    expect(formatChangePct('0.00', 'en')).toBe('0.00%');
    expect(formatChangePct('12.5', 'en')).toBe('+12.50%');
  });

  it('places the per-cent sign the language way', () => {
    expect(plain(formatChangePct('1.23', 'de'))).toBe('+1,23 %');
    expect(plain(formatChangePct('-1.23', 'fr'))).toMatch(/^-1,23 %$/);
  });

  it('moves the point exactly', () => {
    expect(percentToFraction('1.23')).toBe('0.0123');
    expect(percentToFraction('-12.5')).toBe('-0.125');
    expect(percentToFraction('250')).toBe('2.50');
    expect(percentToFraction('x')).toBeNull();
  });
});

describe('figures', () => {
  it('formats volume and amount with grouping', () => {
    expect(formatDecimal('1234567.891', 'en')).toBe('1,234,567.89');
    expect(formatDecimal('1234567.891', 'en', 4)).toBe('1,234,567.891');
  });

  it('shortens large figures per language', () => {
    expect(formatCompact('1234567', 'en')).toBe('1.23M');
    expect(formatCompact('1234567', 'zh-CN')).toBe('123.46万');
    expect(formatCompact(undefined, 'en')).toBe(placeholder);
  });

  it('groups whole numbers per language', () => {
    expect(formatInteger(1234, 'en')).toBe('1,234');
    expect(formatInteger(1234, 'de')).toBe('1.234');
    expect(plain(formatInteger(1234, 'fr'))).toBe('1 234');
    expect(formatInteger(100, 'th')).toBe('100');
    expect(formatInteger(Number.NaN, 'en')).toBe(placeholder);
  });

  it('reads the direction of a change', () => {
    expect(directionOf('1.2')).toBe('up');
    expect(directionOf('-0.01')).toBe('down');
    expect(directionOf('0.00')).toBe('flat');
    expect(directionOf('-0.00')).toBe('flat');
    expect(directionOf(null)).toBe('flat');
  });
});

describe('dates', () => {
  const at = Date.UTC(2025, 5, 2, 22, 0, 0);

  it('formats date and time per language in the given zone', () => {
    expect(plain(formatDateTime(at, 'en', 'UTC'))).toBe('Jun 2, 2025, 10:00 PM');
    expect(formatDateTime(at, 'zh-CN', 'UTC')).toBe('2025年6月2日 22:00');
    expect(plain(formatDateTime(at, 'de', 'UTC'))).toBe('02.06.2025, 22:00');
  });

  it('formats a date alone per language', () => {
    expect(plain(formatDate(at, 'en', 'UTC'))).toBe('Jun 2, 2025');
    expect(formatDate(at, 'zh-CN', 'UTC')).toBe('2025年6月2日');
    expect(formatDate(at, 'ja', 'UTC')).toBe('2025/06/02');
    expect(plain(formatDate(at, 'de', 'UTC'))).toBe('02.06.2025');
  });

  it('formats clock times on a 24-hour clock', () => {
    expect(formatClock(at, 'en', false, 'UTC')).toBe('22:00');
    expect(formatClock(at + 5_000, 'en', true, 'UTC')).toBe('22:00:05');
  });
});

describe('money formatting', () => {
  it('shows minor units with two decimals, per language', () => {
    expect(formatMoney(123456, 'en')).toBe('1,234.56');
    expect(formatMoney(123456, 'de')).toBe('1.234,56');
    expect(formatMoney(5, 'zh-CN')).toBe('0.05');
    expect(formatMoney(0, 'en')).toBe('0.00');
    expect(formatMoney(null, 'en')).toBe(placeholder);
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
