import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChoicePicker } from '@client/components/ChoicePicker';
import { SearchIcon } from '@client/components/icons';
import { PageHeader } from '@client/components/PageHeader';
import { ProductsView } from '@client/components/ProductList';
import { categoriesOf, productSorts, type ProductSort } from '@client/components/product-sort';
import type { Product } from '@shared/product';
import { productMatches } from '@shared/product-search';
import { useProducts } from '@client/state';

type Category = Product['category'] | 'all';

/**
 * Product tab (/pages/product/product): every product, by category tab, in the order the reader
 * picks (name, price, change, volume), filtered as the user types by code or by name in any
 * language, with the server's own matching (shared/src/product-search.ts). The list is small and
 * already here, so all of it happens locally, with no request per keystroke.
 */
export function ProductPage() {
  const { t } = useTranslation();
  const products = useProducts();
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<Category>('all');
  const [sort, setSort] = useState<ProductSort>('default');
  const categories = products.status === 'ready' ? categoriesOf(products.data) : [];
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
      <div className="product-tools">
        <div className="category-tabs" role="group" aria-label={t('market.categoriesLabel')}>
          {(['all', ...categories] as const).map((name) => (
            <button
              key={name}
              type="button"
              className="category-tabs__tab"
              aria-pressed={name === category}
              data-testid={`category-${name}`}
              onClick={() => setCategory(name)}
            >
              {name === 'all' ? t('market.categoryAll') : t(`market.category.${name}`)}
            </button>
          ))}
        </div>
        <div className="product-sort">
          <ChoicePicker
            label={t('market.sort.label')}
            testId="sort"
            value={sort}
            choices={productSorts.map((name) => ({ value: name, label: t(`market.sort.${name}`) }))}
            onValue={setSort}
          />
        </div>
      </div>
      <ProductsView
        request={products}
        sort={sort}
        filter={(product) =>
          (category === 'all' || product.category === category) && productMatches(product, query)
        }
      />
    </>
  );
}
