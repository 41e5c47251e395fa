import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@client/app/route-table';
import { Link, useSearchParams } from 'react-router-dom';
import { ChartIcon } from '@client/components/icons';
import { PageHeader } from '@client/components/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import { errorText } from '@client/components/error-text';
import type { TradeMode } from '@shared/orders/model';
import { PracticeBand, TradeModeSwitch } from '@client/components/orders/TradeMode';
import {
  loadOrderPage,
  orderListKey,
  orderTabFrom,
  orderTabs,
  queryKeys,
  useApiQuery,
  useTradeMode,
  type OrdersPageTab,
} from '@client/state';
import { usePagedQuery } from '@client/state/paged';
import { getProducts } from '@client/api/market';
import { OrderCard } from './OrderCard';
import { PnlSummary } from './PnlSummary';
import { useOrderList } from './useOrderList';
import '@client/components/orders/orders.css';
import './order.css';

/** Product names for the cards (the id stands in until they arrive, or if they cannot). */
function useProductNames(): ReadonlyMap<string, string> {
  const products = useApiQuery(queryKeys.products, () => getProducts());
  const data = products.status === 'ready' ? products.data : null;
  return useMemo(() => new Map(data?.map((p) => [p.id, p.name]) ?? []), [data]);
}

/**
 * The Open tab with nothing open: "No open trades" and the way to the Closed tab when the mode has
 * closed orders (the first page of that tab's own list, shared with it); "No orders yet" and
 * "Start a trade" only when it has none at all. Until the Closed list is known, the first (true
 * either way) with the way to trade.
 */
function NoOpenOrders({ mode }: { mode: TradeMode }) {
  const { t } = useTranslation();
  const closed = usePagedQuery(orderListKey(mode, 'history'), (cursor) =>
    loadOrderPage(mode, 'history', cursor),
  );
  const startTrade = { label: t('empty.startTrade'), to: paths.product };
  if (closed.status !== 'ready')
    return <EmptyState text={t('orders.list.noOpen')} action={startTrade} />;
  if (closed.items.length === 0) return <EmptyState text={t('empty.orders')} action={startTrade} />;
  return (
    <EmptyState
      text={t('orders.list.noOpen')}
      action={{ label: t('orders.list.seeClosed'), to: `${paths.orders}?tab=history` }}
    />
  );
}

function OrderListView({ tab, mode }: { tab: OrdersPageTab; mode: TradeMode }) {
  const { t } = useTranslation();
  const { list, load, retry, loadMore, more } = useOrderList(tab, mode);
  const names = useProductNames();
  const sentinel = useRef<HTMLDivElement>(null);
  const canLoadMore = list.loaded && list.hasMore && !more.busy && !more.error;

  // Next page when the end of the list scrolls into view.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !canLoadMore) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) loadMore();
      },
      { rootMargin: '200px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [canLoadMore, loadMore]);

  if (!list.loaded) {
    if (load.status === 'error') return <ErrorState error={load.error} onRetry={retry} />;
    return <LoadingState />;
  }
  if (list.items.length === 0 && tab === 'positions') return <NoOpenOrders mode={mode} />;
  if (list.items.length === 0)
    return (
      <EmptyState
        text={t('empty.orders')}
        action={{ label: t('empty.startTrade'), to: paths.product }}
      />
    );
  return (
    <>
      <ul className="order-list" data-testid={`list-${tab}`}>
        {list.items.map((order) => (
          <OrderCard
            key={order.id}
            order={order}
            productName={names.get(order.productId) ?? order.productId}
          />
        ))}
      </ul>
      <div ref={sentinel} className="order-list__end">
        {!list.hasMore ? (
          <p className="order-list__no-more" data-testid="no-more">
            {t('common.noMore')}
          </p>
        ) : more.error ? (
          <div className="state state--error" role="alert">
            <p>{errorText(t, more.error)}</p>
            <button type="button" className="button" onClick={loadMore}>
              {t('common.retry')}
            </button>
          </div>
        ) : (
          <button
            type="button"
            className="button button--secondary"
            data-testid="load-more"
            disabled={more.busy}
            onClick={loadMore}
          >
            {more.busy ? t('common.loading') : t('orders.list.loadMore')}
          </button>
        )}
      </div>
    </>
  );
}

/**
 * /pages/order/order, the Orders tab: account P&L on top, then two tabs, Open (live positions)
 * and Closed (settled). `?tab=history` picks Closed; any other value (the old `records` and
 * `positions` links among them) opens Open.
 */
export function OrderPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = orderTabFrom(params.get('tab'));

  const choose = (next: OrdersPageTab) => setParams({ tab: next }, { replace: true });
  const { mode } = useTradeMode();

  return (
    <>
      <PageHeader title={t('tabs.orders')}>
        <Link
          to={paths.stats}
          className="icon-button"
          aria-label={t('orders.stats.open')}
          data-testid="open-stats"
        >
          <ChartIcon />
        </Link>
        <TradeModeSwitch place="header" />
      </PageHeader>
      {mode === 'practice' && <PracticeBand testId="header-practice-band" />}
      <PnlSummary mode={mode} />
      <div className="order-tabs" role="tablist" aria-label={t('orders.list.tabsLabel')}>
        {orderTabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`order-tab-${name}`}
            className="order-tabs__tab"
            aria-selected={name === tab}
            aria-controls="order-panel"
            tabIndex={name === tab ? 0 : -1}
            data-testid={`tab-${name}`}
            onClick={() => choose(name)}
            onKeyDown={(event) => {
              if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
              const step = event.key === 'ArrowRight' ? 1 : -1;
              const next =
                orderTabs[(orderTabs.indexOf(tab) + step + orderTabs.length) % orderTabs.length]!;
              choose(next);
              document.getElementById(`order-tab-${next}`)?.focus();
            }}
          >
            {t(`orders.tabs.${name}`)}
          </button>
        ))}
      </div>
      <section id="order-panel" role="tabpanel" aria-labelledby={`order-tab-${tab}`}>
        {/* Keyed: each tab (and mode) is its own list (its own query), kept live by events. */}
        <OrderListView key={`${mode}-${tab}`} tab={tab} mode={mode} />
      </section>
    </>
  );
}
