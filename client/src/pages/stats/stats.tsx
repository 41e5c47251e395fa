import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { StatsRow, TradingStats } from '@shared/orders/stats';
import * as orders from '@shared/orders/routes';
import { call } from '@client/api/client';
import { getProducts } from '@client/api/market';
import { paths } from '@client/app/route-table';
import { PageHeader } from '@client/components/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import { PracticeBand, TradeModeSwitch } from '@client/components/orders/TradeMode';
import { durationUnit, signOf } from '@client/components/orders/format';
import { formatMoney, formatSignedMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { useProductName } from '@client/i18n/useProductName';
import { queryKeys, useApiQuery, useTradeMode } from '@client/state';
import { StatsChart } from './StatsChart';
import { statsPeriodFrom, statsPeriods, winRatePercent, type StatsPeriod } from './stats-view';
import '@client/components/orders/orders.css';
import './stats.css';

/** Product names in the reader's language (the id stands in until they arrive, or if they cannot). */
function useProductNames(): (id: string) => string {
  const products = useApiQuery(queryKeys.products, () => getProducts());
  const name = useProductName();
  const data = products.status === 'ready' ? products.data : null;
  const names = useMemo(() => new Map(data?.map((p) => [p.id, name(p)]) ?? []), [data, name]);
  return (id) => names.get(id) ?? id;
}

function Pnl({ value, testId }: { value: number; testId?: string }) {
  const { lang } = useFormat();
  const sign = signOf(value);
  return (
    <span className={`stats__pnl stats__pnl--${sign} num`} data-testid={testId}>
      {sign !== 'flat' && <span aria-hidden="true">{sign === 'up' ? '▲ ' : '▼ '}</span>}
      {formatSignedMoney(value, lang)}
    </span>
  );
}

function WinRate({ rate, testId }: { rate: StatsRow['winRate']; testId?: string }) {
  const { lang } = useFormat();
  const pct = winRatePercent(rate);
  const text =
    pct === null
      ? '–'
      : new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(
          pct / 100,
        );
  return (
    <span className="num" data-testid={testId}>
      {text}
    </span>
  );
}

function Overall({ row }: { row: StatsRow }) {
  const { t } = useTranslation();
  const { lang, integer } = useFormat();
  return (
    <dl className="stats__figures" data-testid="stats-overall">
      <div>
        <dt>{t('orders.stats.winRate')}</dt>
        <dd>
          <WinRate rate={row.winRate} testId="stats-win-rate" />
        </dd>
      </div>
      <div>
        <dt>{t('orders.stats.pnl')}</dt>
        <dd>
          <Pnl value={row.pnl} testId="stats-pnl" />
        </dd>
      </div>
      <div>
        <dt>{t('orders.stats.orders')}</dt>
        <dd className="num" data-testid="stats-orders">
          {integer(row.orders)}
        </dd>
      </div>
      <div>
        <dt>{t('orders.stats.averageStake')}</dt>
        <dd className="num" data-testid="stats-average-stake">
          {formatMoney(row.averageStake, lang)}
        </dd>
      </div>
    </dl>
  );
}

function GroupTable({
  title,
  head,
  rows,
  testId,
}: {
  title: string;
  head: string;
  rows: { key: string; label: string; row: StatsRow }[];
  testId: string;
}) {
  const { t } = useTranslation();
  const { integer } = useFormat();
  return (
    <section className="stats__group">
      <h2 className="stats__heading">{title}</h2>
      <table className="stats__table" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">{head}</th>
            <th scope="col">{t('orders.stats.orders')}</th>
            <th scope="col">{t('orders.stats.winRate')}</th>
            <th scope="col">{t('orders.stats.pnl')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, label, row }) => (
            <tr key={key} data-key={key}>
              <th scope="row">{label}</th>
              <td className="num">{integer(row.orders)}</td>
              <td>
                <WinRate rate={row.winRate} />
              </td>
              <td>
                <Pnl value={row.pnl} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function StatsBody({ stats }: { stats: TradingStats }) {
  const { t } = useTranslation();
  const productName = useProductNames();
  const durationLabel = (seconds: number) => {
    const d = durationUnit(seconds);
    return t(`orders.ticket.${d.unit}`, { value: d.value });
  };
  if (stats.overall.orders === 0)
    return (
      <EmptyState
        text={t('orders.stats.empty')}
        action={{ label: t('empty.startTrade'), to: paths.product }}
      />
    );
  return (
    <>
      <Overall row={stats.overall} />
      <StatsChart stats={stats} />
      <GroupTable
        title={t('orders.stats.byProduct')}
        head={t('orders.stats.product')}
        testId="stats-by-product"
        rows={stats.byProduct.map((p) => ({
          key: p.productId,
          label: productName(p.productId),
          row: p,
        }))}
      />
      <GroupTable
        title={t('orders.stats.byDuration')}
        head={t('orders.ticket.duration')}
        testId="stats-by-duration"
        rows={stats.byDuration.map((d) => ({
          key: String(d.duration),
          label: durationLabel(d.duration),
          row: d,
        }))}
      />
    </>
  );
}

/**
 * The trader's statistics: closed orders of the current mode (the app's real / practice switch)
 * over the last 7, 30 or 90 platform days (`?days=`), from GET /api/orders/stats: win rate, P&L,
 * orders and average stake, P&L by day as bars, and tables by product and by duration.
 */
export function StatsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const days = statsPeriodFrom(params.get('days'));
  const { mode } = useTradeMode();
  const stats = useApiQuery(
    ['orders', 'stats', mode, days],
    () => call(orders.tradingStats, { query: { mode, days } }),
    { refetchOnShow: true, perVisit: true },
  );
  const choose = (p: StatsPeriod) => setParams({ days: String(p) }, { replace: true });
  return (
    <>
      <PageHeader title={t('pages.stats')} back />
      <div className="stats__controls">
        <TradeModeSwitch place="ticket" />
        <div className="stats__periods" role="group" aria-label={t('orders.stats.period')}>
          {statsPeriods.map((p) => (
            <button
              key={p}
              type="button"
              className="stats__period"
              aria-pressed={p === days}
              data-testid={`stats-days-${p}`}
              onClick={() => choose(p)}
            >
              {t('orders.stats.days', { count: p })}
            </button>
          ))}
        </div>
      </div>
      {mode === 'practice' && <PracticeBand testId="stats-practice-band" />}
      <section className="trading-stats" aria-live="polite">
        {stats.status === 'ready' ? (
          <StatsBody stats={stats.data} />
        ) : stats.status === 'error' ? (
          <ErrorState error={stats.error} onRetry={stats.retry} />
        ) : (
          <LoadingState />
        )}
      </section>
    </>
  );
}
