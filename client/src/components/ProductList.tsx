import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { LiveProduct, LiveRequest } from '@client/state';
import { useFormat } from '@client/i18n/useFormat';
import { useProductName } from '@client/i18n/useProductName';
import { ChangeBadge } from './ChangeBadge';
import { EmptyState, ErrorState, LoadingState } from './StateViews';
import './market.css';
import { paths } from '@client/app/route-table';
import { favouritesFirst, useFavourites } from '@client/state/favourites';
import { formatRate } from './orders/format';
import { sortProducts, type ProductSort } from './product-sort';

export function detailPath(id: string): string {
  return `${paths.detail}?id=${encodeURIComponent(id)}`;
}

/** What a row shows: a row whose figures did not move is not drawn again on the next snapshot. */
const sameRow = (
  a: { product: LiveProduct; favourite: boolean },
  b: { product: LiveProduct; favourite: boolean },
) =>
  a.favourite === b.favourite &&
  a.product.id === b.product.id &&
  a.product.name === b.product.name &&
  a.product.price === b.product.price &&
  a.product.precision === b.product.precision &&
  a.product.changePct === b.product.changePct &&
  a.product.volume === b.product.volume &&
  a.product.bestRate === b.product.bestRate &&
  a.product.status === b.product.status;

const ProductRow = memo(function ProductRow({
  product,
  favourite,
}: {
  product: LiveProduct;
  favourite: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const name = useProductName()(product);
  return (
    <li>
      <Link
        to={detailPath(product.id)}
        className="product-row"
        data-testid={`product-row-${product.id}`}
        data-change-pct={product.changePct}
      >
        <span className="product-row__name">
          <strong>
            {favourite && (
              <span
                className="product-row__favourite"
                data-testid="favourite-mark"
                role="img"
                aria-label={t('market.favourite.marked')}
              >
                ★{' '}
              </span>
            )}
            {name}
          </strong>
          <small>
            {name !== product.name && <span className="product-row__code">{product.name} · </span>}
            {t('market.volumeShort', { value: format.compact(product.volume) })}
          </small>
          {product.bestRate !== null && (
            <small className="product-row__payout" data-testid="best-rate">
              {t('market.upTo', { rate: formatRate(product.bestRate, format.lang) })}
            </small>
          )}
        </span>
        <span className="product-row__price num" data-testid="price">
          {format.price(product.price, product.precision)}
        </span>
        <span className="product-row__change">
          {product.status === 'open' ? (
            <ChangeBadge pct={product.changePct} solid />
          ) : (
            <span className="status-tag">{t(`market.status.${product.status}`)}</span>
          )}
        </span>
      </Link>
    </li>
  );
}, sameRow);

/**
 * Name, best rate, latest price, 24h change and 24h volume per product, the user's favourites
 * first and starred (unless the reader chose an order); each row opens the detail.
 */
export function ProductList({
  products,
  sort = 'default',
}: {
  products: LiveProduct[];
  sort?: ProductSort;
}) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const nameOf = useProductName();
  const { ids, isFavourite } = useFavourites();
  const shown =
    sort === 'default'
      ? favouritesFirst(products, ids)
      : sortProducts(products, sort, nameOf, lang);
  return (
    <div className="product-list">
      <div className="product-list__head" aria-hidden="true">
        <span>{t('market.name')}</span>
        <span>{t('market.latestPrice')}</span>
        <span>{t('market.change24h')}</span>
      </div>
      <ul>
        {shown.map((product) => (
          <ProductRow key={product.id} product={product} favourite={isFavourite(product.id)} />
        ))}
      </ul>
    </div>
  );
}

/** A product request in its three states, the list filtered by `filter` once loaded. */
export function ProductsView({
  request,
  filter = () => true,
  sort,
}: {
  request: LiveRequest<LiveProduct[]>;
  filter?: (product: LiveProduct) => boolean;
  sort?: ProductSort;
}) {
  switch (request.status) {
    case 'loading':
      return <LoadingState />;
    case 'error':
      return <ErrorState error={request.error} onRetry={request.retry} />;
    case 'ready': {
      const shown = request.data.filter(filter);
      return shown.length === 0 ? <EmptyState /> : <ProductList products={shown} sort={sort} />;
    }
  }
}
