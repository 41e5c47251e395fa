import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Order, TickRef } from '@shared/orders';
import { Countdown } from '@client/components/orders/Countdown';
import { DirectionLabel } from '@client/components/orders/DirectionLabel';
import { formatMoney, formatSignedMoney } from '@client/i18n/format';
import {
  formatPriceAsIs,
  formatRate,
  formatTickTime,
  signOf,
} from '@client/components/orders/format';
import { comparePrices, payoutAt } from '@client/components/orders/order-math';
import { useDurationLabel } from '@client/components/orders/useDurationLabel';
import { useLatestPrice } from '@client/components/orders/useLatestPrice';
import { useFormat } from '@client/i18n/useFormat';

/** A recorded tick: its price, then its sequence number and time, checkable against the tape. */
function TickFigure({ tick, testId }: { tick: TickRef; testId: string }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  return (
    <>
      <span
        className="order-card__price num"
        data-testid={testId}
        data-seq={tick.seq}
        data-ts={tick.ts}
        data-price={tick.price}
      >
        {formatPriceAsIs(tick.price, lang)}
      </span>
      <small className="order-card__tick num">
        {t('orders.list.tick', { seq: tick.seq, time: formatTickTime(tick.ts, lang) })}
      </small>
    </>
  );
}

function Figure({
  label,
  children,
  wide = false,
}: {
  label: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className={`order-card__figure${wide ? ' order-card__figure--wide' : ''}`}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * The entry: its tick once recorded; until then (the first tick after acceptance is on its way)
 * a note that the order waits for it; a dash on an order that ended without one.
 */
export function EntryFigure({ order }: { order: Pick<Order, 'id' | 'status' | 'entry'> }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const testId = `entry-price-${order.id}`;
  if (order.entry) return <TickFigure tick={order.entry} testId={testId} />;
  if (order.status === 'open')
    return (
      <span className="order-card__awaiting" data-testid={testId} data-awaiting="true">
        {t('orders.list.awaitingEntry')}
      </span>
    );
  return (
    <span className="order-card__price num" data-testid={testId}>
      {formatPriceAsIs(null, lang)}
    </span>
  );
}

/** Why a void order was refunded, in words. */
export function VoidNote({ order }: { order: Pick<Order, 'id' | 'voidReason'> }) {
  const { t } = useTranslation();
  const reason = order.voidReason;
  return (
    <p className="order-card__void" data-testid={`void-reason-${order.id}`}>
      {reason === 'FEED_STALE'
        ? t('orders.voidReason.FEED_STALE')
        : reason === 'NO_ENTRY_TICK'
          ? t('orders.voidReason.NO_ENTRY_TICK')
          : t('orders.voidReason.other')}
    </p>
  );
}

/** Live figures of an open position: current price against entry, what it would pay, time left. */
function OpenFigures({ order }: { order: Order }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const price = useLatestPrice(order.productId);
  let move: 'up' | 'down' | 'flat' = 'flat';
  try {
    if (price !== null && order.entry) {
      const c = comparePrices(price, order.entry.price);
      move = c > 0 ? 'up' : c < 0 ? 'down' : 'flat';
    }
  } catch {
    move = 'flat';
  }
  const payNow = price === null ? null : payoutAt(order, price);
  return (
    <>
      <Figure label={t('orders.list.current')}>
        <span
          className={`order-card__price order-card__price--${move} num`}
          data-testid={`current-price-${order.id}`}
        >
          {move !== 'flat' && <span aria-hidden="true">{move === 'up' ? '▲ ' : '▼ '}</span>}
          {formatPriceAsIs(price, lang)}
        </span>
      </Figure>
      <Figure label={t('orders.list.timeLeft')}>
        <Countdown
          expiresAt={order.expiresAt}
          testId={`countdown-${order.id}`}
          endedText={t('orders.list.settling')}
        />
      </Figure>
      <Figure label={t('orders.list.payNow')}>
        <span className="num" data-testid={`pay-now-${order.id}`}>
          {formatMoney(payNow, lang)}
        </span>
      </Figure>
    </>
  );
}

function ClosedFigures({ order }: { order: Order }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  return (
    <>
      <Figure label={t('orders.list.exit')}>
        {order.exit ? (
          <TickFigure tick={order.exit} testId={`exit-price-${order.id}`} />
        ) : (
          <span className="order-card__price num" data-testid={`exit-price-${order.id}`}>
            {formatPriceAsIs(null, lang)}
          </span>
        )}
      </Figure>
      <Figure label={t('orders.list.pnl')}>
        <span
          className={`order-card__pnl order-card__pnl--${signOf(order.pnl)} num`}
          data-testid={`pnl-${order.id}`}
        >
          {formatSignedMoney(order.pnl, lang)}
        </span>
      </Figure>
      <Figure label={t('orders.list.payout')}>
        <span className="num" data-testid={`payout-${order.id}`}>
          {formatMoney(order.payout, lang)}
        </span>
      </Figure>
    </>
  );
}

/** One order: product, direction, status, stake terms, entry, and live or final figures. */
export function OrderCard({ order, productName }: { order: Order; productName: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const durationLabel = useDurationLabel();
  const open = order.status === 'open';
  return (
    <li className="order-card" data-testid={`order-${order.id}`} data-status={order.status}>
      <div className="order-card__head">
        <strong className="order-card__name">{productName}</strong>
        <DirectionLabel direction={order.direction} />
        <span
          className={`order-status order-status--${order.status}`}
          data-testid={`order-status-${order.id}`}
          data-status={order.status}
        >
          {t(`orders.status.${order.status}`)}
        </span>
      </div>
      <dl className="order-card__figures">
        <Figure label={t('orders.ticket.amount')}>
          <span className="num">{formatMoney(order.amount, format.lang)}</span>
        </Figure>
        <Figure label={t('orders.ticket.duration')}>{durationLabel(order.duration)}</Figure>
        <Figure label={t('orders.ticket.rate')}>
          <span className="num">{formatRate(order.rate, format.lang)}</span>
        </Figure>
        <Figure label={t('orders.list.entry')}>
          <EntryFigure order={order} />
        </Figure>
        {open ? <OpenFigures order={order} /> : <ClosedFigures order={order} />}
      </dl>
      {order.status === 'void' && <VoidNote order={order} />}
      <p className="order-card__times">
        <span>
          {t('orders.list.placedAt')} {format.dateTime(order.createdAt)}
        </span>
        {order.settledAt !== null && (
          <span>
            {t('orders.list.settledAt')} {format.dateTime(order.settledAt)}
          </span>
        )}
      </p>
    </li>
  );
}
