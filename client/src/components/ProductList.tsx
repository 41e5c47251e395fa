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
 * Name, latest price, 24h change and 24h volume per product, the user's favourites first and
 * starred; each row opens the detail.
 */
export function ProductList({ products }: { products: LiveProduct[] }) {
  const { t } = useTranslation();
  const { ids, isFavourite } = useFavourites();
  return (
    <div className="product-list">
      <div className="product-list__head" aria-hidden="true">
        <span>{t('market.name')}</span>
        <span>{t('market.latestPrice')}</span>
        <span>{t('market.change24h')}</span>
      </div>
      <ul>
        {favouritesFirst(products, ids).map((product) => (
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
}: {
  request: LiveRequest<LiveProduct[]>;
  filter?: (product: LiveProduct) => boolean;
}) {
  switch (request.status) {
    case 'loading':
      return <LoadingState />;
    case 'error':
      return <ErrorState error={request.error} onRetry={request.retry} />;
    case 'ready': {
      const shown = request.data.filter(filter);
      return shown.length === 0 ? <EmptyState /> : <ProductList products={shown} />;
    }
  }
}
