import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Order } from '@shared/orders/model';
import { paths } from '@client/app/route-table';
import { DirectionLabel } from '@client/components/orders/DirectionLabel';
import { formatPriceAsIs } from '@client/components/orders/format';
import { orderNumber } from '@client/components/orders/order-number';
import { formatMoney, formatSignedMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { pnlOf } from '@client/state/order-results';
import { resultOpened } from '@client/state/result-sheet';

/** The order's details page (its result and the audit against the tape). */
const orderDetailHref = (id: string) => `${paths.orderDetail}?id=${encodeURIComponent(id)}`;

/** What the order's end means for the reader's money, in one line. */
export function useOutcomeText(): (order: Order) => string {
  const { t } = useTranslation();
  const { lang } = useFormat();
  return (order) => {
    switch (order.status) {
      case 'won':
        return t('results.wonLine', {
          payout: formatMoney(order.payout, lang),
          profit: formatSignedMoney(pnlOf(order), lang),
        });
      case 'lost':
        return t('results.lostLine', { amount: formatSignedMoney(pnlOf(order), lang) });
      case 'draw':
        return t('results.drawLine');
      case 'sold':
        return t('results.soldLine', {
          value: formatMoney(order.payout, lang),
          profit: formatSignedMoney(pnlOf(order), lang),
        });
      case 'void':
        return order.voidReason === 'FEED_STALE' || order.voidReason === 'NO_ENTRY_TICK'
          ? t(`orders.voidReason.${order.voidReason}`)
          : t('orders.voidReason.other');
      default:
        return '';
    }
  };
}

/** One settled order on the results list: a link to its details. */
export function ResultItem({ order, name }: { order: Order; name: string }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const outcome = useOutcomeText();
  const status = order.status as Exclude<Order['status'], 'open'>;
  return (
    <Link
      to={orderDetailHref(order.id)}
      className={`result result--${status}`}
      data-testid={`result-${order.id}`}
      data-status={status}
      data-mode={order.mode}
      onClick={() => resultOpened(order.id)}
    >
      <span className="result__top">
        <span className={`result__status result__status--${status}`}>
          {t(`orders.status.${status}`)}
        </span>
        <span className="result__name">{name}</span>
        <DirectionLabel direction={order.direction} />
        {order.mode === 'practice' && (
          <span className="result__practice" data-testid="result-practice">
            {t('orders.practice.bandLabel')}
          </span>
        )}
      </span>
      <span className="result__outcome" data-testid="result-outcome">
        {outcome(order)}
      </span>
      <span className="result__meta num">
        <span>
          {formatPriceAsIs(order.entry?.price, lang)} → {formatPriceAsIs(order.exit?.price, lang)}
        </span>
        <span>{orderNumber(order.id)}</span>
      </span>
    </Link>
  );
}
