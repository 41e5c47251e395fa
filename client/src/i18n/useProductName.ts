import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { productDisplayName } from '@shared/product-names';
import { defaultLanguage, isLanguage } from './languages';

/**
 * A product's name in the reader's language ("黄金", "Gold", "Vàng" for XAU/USD), from the one
 * table the server's search uses too (shared/src/product-names.ts). Re-renders on a language
 * switch like any translated text.
 */
export function useProductName(): (product: { id: string; name: string }) => string {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useCallback(
    (product) => productDisplayName(product, isLanguage(lang) ? lang : defaultLanguage),
    [lang],
  );
}
