import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Order } from '@shared/orders/model';
import { paths } from '@client/app/route-table';
import { Countdown } from '@client/components/orders/Countdown';
import { DirectionLabel } from '@client/components/orders/DirectionLabel';
import { formatPriceAsIs } from '@client/components/orders/format';
import { orderNumber } from '@client/components/orders/order-number';
import type { EarlyCloseTerms } from '@client/components/orders/sell';
import { useLatestPrice } from '@client/components/orders/useLatestPrice';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { inTheMoney, paysNow } from './positions';
import { SellButton, type StripPosition } from '@client/components/orders/SellButton';
import './positions.css';

function StripItem({ order, price, terms }: StripPosition) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const pays = paysNow(order, price);
  return (
    <li className="positions-strip__cell">
      <Link
        className={`positions-strip__item positions-strip__item--${order.direction}`}
        to={`${paths.orderDetail}?id=${encodeURIComponent(order.id)}`}
        data-testid={`position-item-${order.id}`}
        data-in-money={String(inTheMoney(order, price))}
      >
        <span className="positions-strip__row">
          <DirectionLabel direction={order.direction} />
          <span className="num positions-strip__amount">{formatMoney(order.amount, lang)}</span>
          <Countdown
            expiresAt={order.expiresAt}
            testId={`position-countdown-${order.id}`}
            endedText={t('orders.list.settling')}
          />
        </span>
        <span className="num positions-strip__pays" data-testid={`position-pays-${order.id}`}>
          {t('orders.positions.paysNow', { amount: formatMoney(pays ?? null, lang) })}
        </span>
        {/* Read out; the chart draws the entry, the order's page has both. */}
        <span className="visually-hidden num" data-testid={`position-entry-${order.id}`}>
          {orderNumber(order.id)}{' '}
          {order.entry
            ? t('orders.positions.entry', { price: formatPriceAsIs(order.entry.price, lang) })
            : t('orders.list.awaitingEntry')}
        </span>
      </Link>
      <SellButton order={order} price={price} terms={terms} />
    </li>
  );
}

/**
 * This product's open positions, one compact line of cards right under the chart (so it shows
 * above the docked ticket); each opens the order's details, and has its Sell button under it
 * (early close at the live value, `terms` the product's published ones).
 */
export function PositionsStrip({
  productId,
  open,
  terms,
}: {
  productId: string;
  open: readonly Order[];
  terms?: EarlyCloseTerms;
}) {
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
      <h2 id="positions-strip-title" className="visually-hidden">
        {t('orders.positions.heading')} <span className="num">({open.length})</span>
      </h2>
      <ul className="positions-strip__list">
        {open.map((o) => (
          <StripItem key={o.id} order={o} price={price} terms={terms} />
        ))}
      </ul>
    </section>
  );
}
