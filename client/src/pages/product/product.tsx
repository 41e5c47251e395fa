import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchIcon } from '@client/components/icons';
import { PageHeader } from '@client/components/PageHeader';
import { ProductsView } from '@client/components/ProductList';
import { productMatches } from '@shared/product-search';
import { useProducts } from '@client/state';

/**
 * Product tab (/pages/product/product): every product, filtered as the user types by code or by
 * name in any language, with the server's own matching (shared/src/product-search.ts). The list
 * is small and already here, so filtering happens locally, with no request per keystroke.
 */
export function ProductPage() {
  const { t } = useTranslation();
  const products = useProducts();
  const [query, setQuery] = useState('');
  return (
    <>
      <PageHeader title={t('pages.product')} />
      <div className="search">
        <SearchIcon className="search__icon" />
        <input
          type="search"
          className="search__input"
          data-testid="search"
          aria-label={t('market.searchLabel')}
          placeholder={t('market.searchPlaceholder')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoComplete="off"
          enterKeyHint="search"
        />
      </div>
      <ProductsView request={products} filter={(product) => productMatches(product, query)} />
    </>
  );
}
