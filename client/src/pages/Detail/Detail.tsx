import { memo, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { Product } from '@shared/product';
import { ApiError } from '@client/api/client';
import { ChangeBadge } from '@client/components/ChangeBadge';
import { PageHeader } from '@client/components/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import { useFormat } from '@client/i18n/useFormat';
import { useProductName } from '@client/i18n/useProductName';
import { PracticeBand, TradeModeSwitch } from '@client/components/orders/TradeMode';
import { useIsLoggedIn, useProduct, useTradeMode, type LiveProduct } from '@client/state';
import { errorText } from '@client/components/error-text';
import { useChartIndicators } from './indicator-choice';
import { IndicatorToggles } from './IndicatorToggles';
import { useTicketDuration } from '@client/state/ticket-duration';
import { useFavourites } from '@client/state/favourites';
import { showToast } from '@client/state/toast';
import { Chart } from './Chart';
import { shownView, type ChartView } from './chart-view';
import { IntervalSwitcher } from './IntervalSwitcher';
import { FullscreenBack, FullscreenToggle } from './FullscreenChart';
import { FullscreenSlot } from './fullscreen-slot';
import { useFullscreen } from './useFullscreen';
import { useHeightVar } from './dock-height';
import { ResultsButton } from '@client/components/results/ResultsButton';
import { LivePrice } from './LivePrice';
import { ChartClosedNote, MarketNotice } from './MarketNotice';
import { PositionsStrip } from './Positions';
import { ProductSwitcher } from './ProductSwitcher';
import { PriceAlertsButton } from './PriceAlerts';
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

/**
 * The chart's view: the interval that follows the ticket's duration (chart-view.ts), unless the
 * trader picked another for that duration. A closed market shows its last day in 1-minute
 * candles (the tape's recent ticks end at the close).
 */
function useChartView(open: boolean): [ChartView, (view: ChartView) => void] {
  const ticketDuration = useTicketDuration();
  const duration = open ? ticketDuration : null;
  const [pick, setPick] = useState<{ view: ChartView; duration: number | null } | null>(null);
  return [shownView(duration, pick), (view) => setPick({ view, duration })];
}

function ProductDetail({ product, raw }: { product: LiveProduct; raw: Product }) {
  const { t } = useTranslation();
  const name = useProductName()(product);
  const [view, setView] = useChartView(product.status === 'open');
  const [indicators, setIndicators] = useChartIndicators();
  const loggedIn = useIsLoggedIn();
  const { mode } = useTradeMode();
  const orders = useProductOrders(product.id, mode);
  const lastOrder = useMemo(
    () => lastOrderOn(orders.all, product.id, mode),
    [orders.all, product.id, mode],
  );
  // Stable children, so that the memoised chart above sees unchanged props.
  const closedNote = useMemo(
    () => <ChartClosedNote status={product.status} opensAt={product.opensAt} />,
    [product.status, product.opensAt],
  );
  // The strip's height: the chart leaves room for it above the docked ticket (detail.css).
  const stripRef = useRef<HTMLDivElement>(null);
  useHeightVar(stripRef, '--strip-h');
  // The chart full screen: its section covers the viewport; the ticket's buy pair joins it in
  // the bar at its foot (fullscreen-slot.ts). State, so turning the phone keeps it.
  const fullscreen = useFullscreen();
  const [buySlot, setBuySlot] = useState<HTMLDivElement | null>(null);
  return (
    <div className="trade">
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
        {loggedIn && <ResultsButton />}
        {loggedIn && <FavouriteToggle productId={product.id} />}
        {loggedIn && <TradeModeSwitch place="header" />}
      </PageHeader>
      {loggedIn && mode === 'practice' && <PracticeBand testId="header-practice-band" />}
      <ProductSwitcher current={product.id} orders={orders.all} mode={mode} />
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
      <section
        className={fullscreen.full ? 'chart-section chart-section--full' : 'chart-section'}
        aria-label={t('market.chartLabel')}
        data-testid="chart-section"
        data-fullscreen={fullscreen.full}
      >
        <div className="chart-toolbar">
          <IntervalSwitcher view={view} onChange={setView} />
          <div className="chart-tools">
            {view !== 'line' && <IndicatorToggles choice={indicators} onChange={setIndicators} />}
            {/* The bell among the chart's tools: the header keeps the product's name whole. */}
            {loggedIn && <PriceAlertsButton product={product} />}
            <FullscreenToggle
              full={fullscreen.full}
              onEnter={fullscreen.enter}
              onLeave={fullscreen.leave}
            />
          </div>
        </div>
        <LiveChart
          productId={product.id}
          precision={product.precision}
          view={view}
          indicators={indicators}
          open={orders.open}
          closed={orders.closed}
          endsAt={product.status === 'open' ? null : (raw.last?.ts ?? null)}
        >
          {closedNote}
        </LiveChart>
        {fullscreen.full && (
          <div className="chart-full__trade" ref={setBuySlot} data-testid="fullscreen-bar" />
        )}
        {fullscreen.full && <FullscreenBack onLeave={fullscreen.leave} />}
      </section>
      <div className="trade__strip" ref={stripRef}>
        <PositionsStrip productId={product.id} open={orders.open} terms={raw.earlyClose} />
      </div>
      <FullscreenSlot.Provider value={fullscreen.full ? buySlot : null}>
        <LiveTicket product={raw} tradable={product.status === 'open'} lastOrder={lastOrder} />
      </FullscreenSlot.Provider>
    </div>
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
