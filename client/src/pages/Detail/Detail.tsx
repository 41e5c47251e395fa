import { memo, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { intervals, type Product } from '@shared/product';
import { ApiError } from '@client/api/client';
import { ChangeBadge } from '@client/components/ChangeBadge';
import { PageHeader } from '@client/components/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import { useFormat } from '@client/i18n/useFormat';
import { useProductName } from '@client/i18n/useProductName';
import { PracticeBand, TradeModeSwitch } from '@client/components/orders/TradeMode';
import { useIsLoggedIn, useProduct, useTradeMode, type LiveProduct } from '@client/state';
import { errorText } from '@client/components/error-text';
import { useChartIndicators, type ChartIndicators } from '@client/state/chart-indicators';
import { useFavourites } from '@client/state/favourites';
import { showToast } from '@client/state/toast';
import { Chart, type ChartView } from './Chart';
import { LivePrice } from './LivePrice';
import { MarketNotice } from './MarketNotice';
import { PositionChips, PositionsStrip } from './Positions';
import { lastOrderOn } from './quick-ticket';
import { Ticket } from './Ticket';
import { useProductOrders } from './useProductOrders';
import './detail.css';

/**
 * The chart and the ticket are drawn again only when their own inputs change, not with each
 * market snapshot (once a second) that re-renders the page's figures (issue 21): the chart
 * takes its ticks from the stream itself, the ticket its price from useLatestPrice.
 */
const LiveChart = memo(Chart);
const LiveTicket = memo(Ticket);

const views: ChartView[] = ['line', ...intervals];

function Stats({ product }: { product: LiveProduct }) {
  const { t } = useTranslation();
  const format = useFormat();
  const rows = [
    { label: t('market.high24h'), value: format.price(product.high, product.precision) },
    { label: t('market.low24h'), value: format.price(product.low, product.precision) },
    { label: t('market.volume24h'), value: format.decimal(product.volume, 4) },
    // Amounts are quote currency with two decimals, shown exactly so ("…249.40").
    { label: t('market.amount24h'), value: format.price(product.amount, 2) },
  ];
  // One line under the price (it scrolls sideways on a narrow phone): the chart gets the room.
  return (
    // Focusable: a keyboard user scrolls it too.
    <dl className="stats" data-testid="stats" tabIndex={0}>
      {rows.map((row) => (
        <div key={row.label} className="stats__item">
          <dt>{row.label}</dt>
          <dd className="num">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function IntervalSwitcher({
  view,
  onChange,
}: {
  view: ChartView;
  onChange: (v: ChartView) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="intervals" role="group" aria-label={t('market.intervalLabel')}>
      {views.map((v) => (
        <button
          key={v}
          type="button"
          className="intervals__button"
          aria-pressed={v === view}
          data-testid={`interval-${v}`}
          onClick={() => onChange(v)}
        >
          {t(`market.interval.${v}`)}
        </button>
      ))}
    </div>
  );
}

/** The star in the header: marks the product as a favourite on every device of the user. */
function FavouriteToggle({ productId }: { productId: string }) {
  const { t } = useTranslation();
  const { isFavourite, toggle } = useFavourites((error) => showToast(errorText(t, error)));
  const on = isFavourite(productId);
  return (
    <button
      type="button"
      className="favourite-toggle"
      aria-pressed={on}
      aria-label={t(on ? 'market.favourite.remove' : 'market.favourite.add')}
      data-testid="favourite-toggle"
      onClick={() => toggle(productId)}
    >
      <span aria-hidden="true">{on ? '★' : '☆'}</span>
    </button>
  );
}

/** Moving average and Bollinger bands on or off, over candles (the line view has none). */
function IndicatorToggles({
  choice,
  onChange,
}: {
  choice: ChartIndicators;
  onChange: (next: ChartIndicators) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="indicators" role="group" aria-label={t('market.indicators.label')}>
      {(['ma', 'boll'] as const).map((key) => (
        <button
          key={key}
          type="button"
          className="indicators__button"
          aria-pressed={choice[key]}
          // The visible abbreviation first (what a voice user says), then what it stands for.
          aria-label={`${t(`market.indicators.${key}`)}: ${t(`market.indicators.${key}Name`)}`}
          data-testid={`indicator-${key}`}
          onClick={() => onChange({ ...choice, [key]: !choice[key] })}
        >
          {t(`market.indicators.${key}`)}
        </button>
      ))}
    </div>
  );
}

function ProductDetail({ product, raw }: { product: LiveProduct; raw: Product }) {
  const { t } = useTranslation();
  const name = useProductName()(product);
  const [view, setView] = useState<ChartView>('1m');
  const [indicators, setIndicators] = useChartIndicators();
  const loggedIn = useIsLoggedIn();
  const { mode } = useTradeMode();
  const orders = useProductOrders(product.id, mode);
  const lastOrder = useMemo(
    () => lastOrderOn(orders.all, product.id, mode),
    [orders.all, product.id, mode],
  );
  // Stable children, so that the memoised chart and ticket above see unchanged props.
  const chips = useMemo(
    () => <PositionChips productId={product.id} open={orders.open} />,
    [product.id, orders.open],
  );
  const strip = useMemo(
    () => <PositionsStrip productId={product.id} open={orders.open} />,
    [product.id, orders.open],
  );
  return (
    <>
      <PageHeader
        title={
          name === product.name ? (
            name
          ) : (
            <>
              {name} <small className="page-header__code">{product.name}</small>
            </>
          )
        }
        back
      >
        {loggedIn && <FavouriteToggle productId={product.id} />}
        {loggedIn && <TradeModeSwitch place="header" />}
      </PageHeader>
      {loggedIn && mode === 'practice' && <PracticeBand testId="header-practice-band" />}
      <MarketNotice product={product} />
      <section className="quote" aria-label={t('market.latestPrice')}>
        <LivePrice
          key={product.id}
          productId={product.id}
          precision={product.precision}
          fallback={product.price}
        />
        <div className="quote__change">
          <span className="quote__label">{t('market.change24h')}</span>
          <ChangeBadge pct={product.changePct} />
        </div>
        <Stats product={product} />
      </section>
      <section className="chart-section" aria-label={t('market.chartLabel')}>
        <IntervalSwitcher view={view} onChange={setView} />
        <LiveChart
          productId={product.id}
          precision={product.precision}
          view={view}
          indicators={indicators}
          open={orders.open}
          closed={orders.closed}
        >
          {chips}
        </LiveChart>
        {view !== 'line' && <IndicatorToggles choice={indicators} onChange={setIndicators} />}
      </section>
      <LiveTicket product={raw} tradable={product.status === 'open'} lastOrder={lastOrder}>
        {strip}
      </LiveTicket>
    </>
  );
}

function ProductById({ id }: { id: string }) {
  const { t } = useTranslation();
  const request = useProduct(id);
  switch (request.status) {
    case 'loading':
      return (
        <>
          <PageHeader title={t('pages.detail')} back />
          <LoadingState />
        </>
      );
    case 'error': {
      const notFound = request.error instanceof ApiError && request.error.code === 'NOT_FOUND';
      return (
        <>
          <PageHeader title={t('pages.detail')} back />
          {notFound ? (
            <EmptyState text={t('market.productNotFound')} />
          ) : (
            <ErrorState error={request.error} onRetry={request.retry} />
          )}
        </>
      );
    }
    case 'ready':
      return <ProductDetail product={request.data.live} raw={request.data.raw} />;
  }
}

/**
 * Product trading detail (/pages/Detail/Detail?id=BTCUSDT): live price, 24h figures, chart, and
 * the order ticket.
 */
export function DetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id');
  if (!id) {
    return (
      <>
        <PageHeader title={t('pages.detail')} back />
        <EmptyState text={t('market.missingProduct')} />
      </>
    );
  }
  // Keyed: another product is a fresh page (request, chart, interval).
  return <ProductById key={id} id={id} />;
}
