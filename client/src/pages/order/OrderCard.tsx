import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '@client/app/route-table';
import type { Order, TickRef } from '@shared/orders/model';
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
import { SellButton } from '@client/components/orders/SellButton';
import { useEarlyCloseTerms } from '@client/state/products';
import { useFormat } from '@client/i18n/useFormat';
import { orderNumber } from '@client/components/orders/order-number';
import { pnlIfEndedNow } from './position';
import { TimeBar } from './TimeBar';

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

/** The P&L the card leads with: large, coloured and signed, with what it means beneath. */
function Headline({ id, value, note }: { id: string; value: number | null; note: string }) {
  const { lang } = useFormat();
  return (
    <p className="order-card__headline">
      <span
        className={`order-card__headline-value order-card__pnl--${signOf(value)} num`}
        data-testid={`headline-${id}`}
        data-pnl={value ?? ''}
      >
        {formatSignedMoney(value, lang)}
      </span>
      <small className="order-card__headline-note">{note}</small>
    </p>
  );
}

/** An open position: what it would make if it ended at the latest price, and its time running out. */
function OpenPosition({ order }: { order: Order }) {
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
      <Headline
        id={order.id}
        value={pnlIfEndedNow(order, price)}
        note={t('orders.list.ifEndedNow')}
      />
      <div className="order-card__time">
        <TimeBar order={order} testId={`time-bar-${order.id}`} />
        <Countdown
          expiresAt={order.expiresAt}
          testId={`countdown-${order.id}`}
          endedText={t('orders.list.settling')}
        />
      </div>
      <dl className="order-card__figures">
        <Terms order={order} />
        <Figure label={t('orders.list.current')}>
          <span
            className={`order-card__price order-card__price--${move} num`}
            data-testid={`current-price-${order.id}`}
          >
            {move !== 'flat' && <span aria-hidden="true">{move === 'up' ? '▲ ' : '▼ '}</span>}
            {formatPriceAsIs(price, lang)}
          </span>
        </Figure>
        <Figure label={t('orders.list.payNow')}>
          <span className="num" data-testid={`pay-now-${order.id}`}>
            {formatMoney(payNow, lang)}
          </span>
        </Figure>
      </dl>
    </>
  );
}

/** A settled order: its final P&L, then the exit (a sold one's: the sale tick) and what it paid. */
function ClosedPosition({ order }: { order: Order }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  return (
    <>
      <Headline id={order.id} value={order.pnl} note={t('orders.list.finalPnl')} />
      <dl className="order-card__figures">
        <Terms order={order} />
        <Figure
          label={order.status === 'sold' ? t('orders.list.salePrice') : t('orders.list.exit')}
        >
          {order.exit ? (
            <TickFigure tick={order.exit} testId={`exit-price-${order.id}`} />
          ) : (
            <span className="order-card__price num" data-testid={`exit-price-${order.id}`}>
              {formatPriceAsIs(null, lang)}
            </span>
          )}
        </Figure>
        <Figure label={t('orders.list.payout')}>
          <span className="num" data-testid={`payout-${order.id}`}>
            {formatMoney(order.payout, lang)}
          </span>
        </Figure>
      </dl>
    </>
  );
}

/** The order's terms, the same on an open and a settled card. */
function Terms({ order }: { order: Order }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const durationLabel = useDurationLabel();
  return (
    <>
      <Figure label={t('orders.ticket.amount')}>
        <span className="num">{formatMoney(order.amount, lang)}</span>
      </Figure>
      <Figure label={t('orders.ticket.duration')}>{durationLabel(order.duration)}</Figure>
      <Figure label={t('orders.ticket.rate')}>
        <span className="num">{formatRate(order.rate, lang)}</span>
      </Figure>
      <Figure label={t('orders.list.entry')}>
        <EntryFigure order={order} />
      </Figure>
    </>
  );
}

export function orderDetailPath(id: string): string {
  return `${paths.orderDetail}?id=${encodeURIComponent(id)}`;
}

/**
 * One order, led by its P&L (if it ended now, or final), with a shrinking bar while open; the
 * terms in a quiet grid below, then the order number and one time (placed, or settled). The
 * whole card opens the order's details.
 */
export function OrderCard({ order, productName }: { order: Order; productName: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const open = order.status === 'open';
  return (
    <li className="order-card" data-testid={`order-${order.id}`} data-status={order.status}>
      <Link
        to={orderDetailPath(order.id)}
        className="order-card__link"
        data-testid={`order-link-${order.id}`}
      >
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
        {open ? <OpenPosition order={order} /> : <ClosedPosition order={order} />}
        {order.status === 'void' && <VoidNote order={order} />}
        <p className="order-card__foot">
          <span className="num" data-testid={`order-number-${order.id}`}>
            {orderNumber(order.id)}
          </span>
          <span>
            {order.settledAt !== null
              ? `${t('orders.list.settledAt')} ${format.dateTime(order.settledAt)}`
              : `${t('orders.list.placedAt')} ${format.dateTime(order.createdAt)}`}
          </span>
        </p>
      </Link>
      {open && <CardSell order={order} />}
    </li>
  );
}

/** An open order's Sell button under its card (outside the card's link: a button of its own). */
function CardSell({ order }: { order: Order }) {
  const price = useLatestPrice(order.productId);
  const terms = useEarlyCloseTerms(order.productId);
  return (
    <div className="order-card__sell">
      <SellButton order={order} price={price} terms={terms} />
    </div>
  );
}
