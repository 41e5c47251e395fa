import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Order } from '@shared/orders';
import { paths } from '@client/app/route-table';
import { Countdown } from '@client/components/orders/Countdown';
import { DirectionLabel } from '@client/components/orders/DirectionLabel';
import { formatPriceAsIs } from '@client/components/orders/format';
import { orderNumber } from '@client/components/orders/order-number';
import { useLatestPrice } from '@client/components/orders/useLatestPrice';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { inTheMoney, paysNow } from './positions';
import './positions.css';

/**
 * The chips over the chart, one per open position: direction, time left on the server clock, and
 * whether it would win if it ended at the latest price (in words and a mark, not colour only).
 */
export function PositionChips({ productId, open }: { productId: string; open: readonly Order[] }) {
  const { t } = useTranslation();
  const price = useLatestPrice(productId, open.length > 0);
  if (open.length === 0) return null;
  return (
    <ul className="position-chips" aria-label={t('orders.positions.chips')}>
      {open.map((o) => {
        const winning = inTheMoney(o, price);
        return (
          <li
            key={o.id}
            className={`position-chip position-chip--${o.direction}`}
            data-testid={`position-chip-${o.id}`}
            data-in-money={String(winning)}
          >
            <span aria-hidden="true">{o.direction === 'up' ? '▲' : '▼'}</span>
            <Countdown expiresAt={o.expiresAt} endedText={t('orders.list.settling')} />
            <span className={`position-chip__state${winning ? ' position-chip__state--in' : ''}`}>
              {winning ? `✓ ${t('orders.positions.inMoney')}` : t('orders.positions.outOfMoney')}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function StripItem({ order, price }: { order: Order; price: string | null }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const pays = paysNow(order, price);
  return (
    <li>
      <Link
        className={`positions-strip__item positions-strip__item--${order.direction}`}
        to={`${paths.orderDetail}?id=${encodeURIComponent(order.id)}`}
        data-testid={`position-item-${order.id}`}
        data-in-money={String(inTheMoney(order, price))}
      >
        <span className="positions-strip__row">
          <DirectionLabel direction={order.direction} />
          <span className="num positions-strip__amount">{formatMoney(order.amount, lang)}</span>
        </span>
        <span className="positions-strip__row positions-strip__muted">
          <span className="num">{orderNumber(order.id)}</span>
          <Countdown
            expiresAt={order.expiresAt}
            testId={`position-countdown-${order.id}`}
            endedText={t('orders.list.settling')}
          />
        </span>
        <span className="positions-strip__muted num" data-testid={`position-entry-${order.id}`}>
          {order.entry
            ? t('orders.positions.entry', { price: formatPriceAsIs(order.entry.price, lang) })
            : t('orders.list.awaitingEntry')}
        </span>
        <span className="num positions-strip__pays" data-testid={`position-pays-${order.id}`}>
          {t('orders.positions.paysNow', { amount: formatMoney(pays ?? null, lang) })}
        </span>
      </Link>
    </li>
  );
}

/** This product's open positions, a horizontal scroller; each opens the order's details. */
export function PositionsStrip({ productId, open }: { productId: string; open: readonly Order[] }) {
  const { t } = useTranslation();
  const price = useLatestPrice(productId, open.length > 0);
  if (open.length === 0) return null;
  return (
    <section
      className="positions-strip"
      aria-labelledby="positions-strip-title"
      data-testid="positions-strip"
      data-count={open.length}
    >
      <h2 id="positions-strip-title" className="positions-strip__title">
        {t('orders.positions.heading')} <span className="num">({open.length})</span>
      </h2>
      <ul className="positions-strip__list">
        {open.map((o) => (
          <StripItem key={o.id} order={o} price={price} />
        ))}
      </ul>
    </section>
  );
}
