import { useMemo } from 'react';
import { formatDate, formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';

const percentFormats = new Map<string, Intl.NumberFormat>();

/** An annual rate as a decimal string ("0.0365") shown as a percentage: "3.65%", exactly. */
export function formatRate(rate: string, lang: string): string {
  if (!/^\d+(\.\d+)?$/.test(rate)) return '--';
  let f = percentFormats.get(lang);
  if (!f) {
    f = new Intl.NumberFormat(lang, {
      style: 'percent',
      minimumFractionDigits: 2,
      maximumFractionDigits: 6,
    });
    percentFormats.set(lang, f);
  }
  return f.format(rate as Intl.StringNumericLiteral);
}

/** A savings amount, `sign` adding + or − where the record's direction gives it. */
export function formatMovement(minor: number, lang: string, sign?: '+' | '-'): string {
  const text = formatMoney(minor, lang);
  return sign ? `${sign === '+' ? '+' : '−'}${text}` : text;
}

/** The formatters above, bound to the current language. */
export function useSavingsFormat() {
  const format = useFormat();
  const { lang } = format;
  return useMemo(
    () => ({
      ...format,
      money: (minor: number, sign?: '+' | '-') => formatMovement(minor, lang, sign),
      rate: (rate: string) => formatRate(rate, lang),
      /** A platform day ('2026-01-10') as a date, whatever the browser's time zone. */
      day: (day: string) => formatDate(Date.parse(`${day}T00:00:00Z`), lang, 'UTC'),
    }),
    [format, lang],
  );
}
