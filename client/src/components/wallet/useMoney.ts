import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppInfo } from '@client/state';
import { formatMoney, formatSignedMoney } from '@client/i18n/format';

/** The account currency when app info has not arrived yet (DECISIONS.md: USDT by default). */
export const DEFAULT_CURRENCY = 'USDT';

/** Money formatters bound to the current language and the currency from app info. */
export function useMoney() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const currency = useAppInfo()?.currency ?? DEFAULT_CURRENCY;
  return useMemo(
    () => ({
      lang,
      currency,
      /** "1,234.56" */
      plain: (minor: number) => formatMoney(minor, lang),
      /** "1,234.56 USDT" */
      money: (minor: number) => `${formatMoney(minor, lang)} ${currency}`,
      /** "+10.00" */
      signed: (minor: number) => formatSignedMoney(minor, lang),
    }),
    [lang, currency],
  );
}
