import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  formatChangePct,
  formatCompact,
  formatDate,
  formatDateTime,
  formatDecimal,
  formatInteger,
  formatPrice,
} from './format';

/** The formatters of format.ts bound to the current language. */
export function useFormat() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(
    () => ({
      lang,
      price: (price: string | null | undefined, precision: number) =>
        formatPrice(price, precision, lang),
      changePct: (pct: string | null | undefined) => formatChangePct(pct, lang),
      decimal: (value: string | null | undefined, maxDecimals?: number) =>
        formatDecimal(value, lang, maxDecimals),
      compact: (value: string | null | undefined) => formatCompact(value, lang),
      dateTime: (ms: number) => formatDateTime(ms, lang),
      date: (ms: number) => formatDate(ms, lang),
      integer: (value: number) => formatInteger(value, lang),
    }),
    [lang],
  );
}
