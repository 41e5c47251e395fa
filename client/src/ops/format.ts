import { minorToDecimal } from '@shared/amount-input';

/** Money in minor units with two decimals, through a decimal string (no float): 123456 → 1,234.56. */
export function money(minor: number | null | undefined, lang: string): string {
  if (minor == null || !Number.isSafeInteger(minor)) return '--';
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    minorToDecimal(minor) as Intl.StringNumericLiteral,
  );
}

export function dateTime(ms: number | null | undefined, lang: string): string {
  if (ms == null) return '--';
  return new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'medium' }).format(ms);
}
