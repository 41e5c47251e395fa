import { useTranslation } from 'react-i18next';
import type { LiveProduct } from '@client/state';
import { useFormat } from '@client/i18n/useFormat';

/** The notice's element id: the order buttons, disabled meanwhile, point to it. */
export const MARKET_NOTICE_ID = 'market-notice';

/** "Market closed — opens at …" / "Under maintenance — opens at …", the time in the user's language. */
export function MarketNotice({ product }: { product: Pick<LiveProduct, 'status' | 'opensAt'> }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (product.status === 'open') return null;
  const time = product.opensAt === undefined ? null : format.dateTime(product.opensAt);
  const text =
    product.status === 'closed'
      ? time
        ? t('market.closedNotice', { time })
        : t('market.closedNoticeNoTime')
      : time
        ? t('market.maintenanceNotice', { time })
        : t('market.maintenanceNoticeNoTime');
  return (
    <p
      id={MARKET_NOTICE_ID}
      className={`market-notice market-notice--${product.status}`}
      role="status"
      data-testid="market-notice"
    >
      {text}
    </p>
  );
}

/**
 * Over a closed market's chart (its last prices, up to the close): "Market closed · Opens at …"
 * in the user's time, so the chart never looks like a blank "No data" (issue 37).
 */
export function ChartClosedNote({ status, opensAt }: Pick<LiveProduct, 'status' | 'opensAt'>) {
  const { t } = useTranslation();
  const format = useFormat();
  if (status === 'open') return null;
  return (
    <p className="chart-closed" data-testid="chart-closed">
      <span className="chart-closed__title">
        {status === 'closed' ? t('market.chartClosed') : t('market.status.maintenance')}
      </span>
      {opensAt !== undefined && (
        <span>{t('market.chartOpensAt', { time: format.dateTime(opensAt) })}</span>
      )}
    </p>
  );
}
