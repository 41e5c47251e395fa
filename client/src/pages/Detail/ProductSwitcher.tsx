import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Order, TradeMode } from '@shared/orders/model';
import type { Product } from '@shared/product';
import { detailPath } from '@client/components/ProductList';
import { useLatestPrice } from '@client/components/orders/useLatestPrice';
import { useFormat } from '@client/i18n/useFormat';
import { useProductName } from '@client/i18n/useProductName';
import { useProducts, type LiveProduct } from '@client/state';
import { useFavourites } from '@client/state/favourites';
import { queryClient, queryKeys } from '@client/state/query-client';
import { prefetchHistory } from './history-query';
import { openCounts, switcherOrder, useRecentProducts } from './recent-products';
import './switcher.css';

function Chip({
  product,
  current,
  open,
}: {
  product: LiveProduct;
  current: boolean;
  open: number;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const name = useProductName()(product);
  // Ticks as they come; the snapshot's price until the first (as the product list shows it).
  const price = useLatestPrice(product.id) ?? product.price;
  return (
    <Link
      to={detailPath(product.id)}
      // Replaces the trade screen: Back still leaves it, not walks through every switch.
      replace
      className="switcher__chip"
      aria-current={current ? 'page' : undefined}
      aria-label={t('market.switcher.chip', { name, n: open })}
      data-testid={`switch-${product.id}`}
    >
      <span className="switcher__name">{product.name}</span>
      <span className="switcher__price num" data-testid={`switch-price-${product.id}`}>
        {format.price(price, product.precision)}
      </span>
      {open > 0 && (
        <span className="switcher__badge num" data-testid={`switch-open-${product.id}`}>
          {open}
        </span>
      )}
    </Link>
  );
}

/**
 * The quick switcher under the trade screen's header: the favourites, then the products opened
 * last on this device, each with its live price and how many positions are open on it (in the
 * mode shown); one tap opens it. The history of each chart is loaded while the strip shows, so
 * the chart of the product switched to draws at once (history-query.ts).
 */
export function ProductSwitcher({
  current,
  orders,
  mode,
}: {
  current: string;
  orders: readonly Order[];
  mode: TradeMode;
}) {
  const { t } = useTranslation();
  const recent = useRecentProducts(current);
  const { ids: favourites } = useFavourites();
  const products = useProducts();
  const list = products.status === 'ready' ? products.data : null;
  const byId = useMemo(() => new Map((list ?? []).map((p) => [p.id, p])), [list]);
  const chips = switcherOrder(favourites, recent, new Set(byId.keys()));
  const counts = useMemo(() => openCounts(orders, mode), [orders, mode]);
  const others = chips.filter((id) => id !== current && byId.get(id)?.status === 'open').join();
  useEffect(() => {
    if (!others) return;
    const raw = queryClient.getQueryData<Product[]>(queryKeys.products) ?? [];
    for (const id of others.split(',')) {
      const product = raw.find((p) => p.id === id);
      if (product) prefetchHistory(product);
    }
  }, [others]);
  const ref = useRef<HTMLElement>(null);
  const shown = chips.length > 1;
  // The current product's chip in view (the row scrolls sideways on a phone).
  useEffect(() => {
    const row = ref.current;
    const chip = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (row && chip) row.scrollLeft = chip.offsetLeft - (row.clientWidth - chip.offsetWidth) / 2;
  }, [shown, current]);
  if (!shown) return null;
  return (
    <nav
      className="switcher"
      aria-label={t('market.switcher.label')}
      data-testid="product-switcher"
      ref={ref}
    >
      {chips.map((id) => {
        const product = byId.get(id);
        return product ? (
          <Chip key={id} product={product} current={id === current} open={counts.get(id) ?? 0} />
        ) : null;
      })}
    </nav>
  );
}
