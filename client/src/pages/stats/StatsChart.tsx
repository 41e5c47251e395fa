import { useTranslation } from 'react-i18next';
import { formatSignedMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import type { TradingStats } from '@shared/orders/stats';
import { dailyPnl } from './stats-view';

const W = 320;
const H = 120;

/**
 * P&L by day as SVG bars around a zero line: up-coloured above, down-coloured below, every day of
 * the window (an empty day has no bar). Each bar's title reads its day and P&L.
 */
export function StatsChart({ stats }: { stats: TradingStats }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const days = dailyPnl(stats);
  const top = Math.max(0, ...days.map((d) => d.pnl));
  const bottom = Math.min(0, ...days.map((d) => d.pnl));
  const span = top - bottom || 1;
  const zero = (top / span) * H;
  const step = W / days.length;
  const width = Math.max(1, step * 0.7);
  return (
    <figure className="stats-chart" data-testid="stats-chart">
      <figcaption className="stats__heading">{t('orders.stats.byDay')}</figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={t('orders.stats.chartLabel', { from: stats.from, to: stats.to })}
      >
        <line className="stats-chart__zero" x1={0} x2={W} y1={zero} y2={zero} />
        {days.map((d, i) =>
          d.pnl === 0 ? null : (
            <rect
              key={d.day}
              className={`stats-chart__bar stats-chart__bar--${d.pnl > 0 ? 'up' : 'down'}`}
              x={i * step + (step - width) / 2}
              y={d.pnl > 0 ? zero - (d.pnl / span) * H : zero}
              width={width}
              height={Math.max(1, (Math.abs(d.pnl) / span) * H)}
              data-day={d.day}
            >
              <title>{`${d.day}: ${formatSignedMoney(d.pnl, lang)}`}</title>
            </rect>
          ),
        )}
      </svg>
      <div className="stats-chart__axis" aria-hidden="true">
        <span>{stats.from}</span>
        <span>{stats.to}</span>
      </div>
    </figure>
  );
}
