import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { filter } from 'rxjs';
import type { Order } from '@shared/orders/model';
import { ApiError } from '@client/api/client';
import { getOrder } from '@client/api/orders';
import { getProducts } from '@client/api/market';
import { Countdown } from '@client/components/orders/Countdown';
import { DirectionLabel } from '@client/components/orders/DirectionLabel';
import { formatPriceAsIs, formatRate, signOf } from '@client/components/orders/format';
import { orderNumber } from '@client/components/orders/order-number';
import { useDurationLabel } from '@client/components/orders/useDurationLabel';
import { PageHeader } from '@client/components/PageHeader';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { useOutcomeText } from '@client/components/results/ResultItem';
import { formatMoney, formatSignedMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { useProductName } from '@client/i18n/useProductName';
import { useApiQuery } from '@client/state/queries';
import { queryClient, queryKeys } from '@client/state/query-client';
import { serverNow, userEvent$ } from '@client/streams';
import { formatStamp } from './stamp';
import { SaleFacts } from './SaleFacts';
import { TapeAudit } from './TapeAudit';
import '@client/components/orders/orders.css';
import '@client/components/results/results.css';
import './order-detail.css';

const orderKey = (id: string) => [...queryKeys.me, 'order', id];
const isOrderId = (id: string) => /^[1-9]\d{0,17}$/.test(id);

/** The order's `order` events, straight into its cached details: the page follows it live. */
function useLiveOrder(id: string): void {
  useEffect(() => {
    const sub = userEvent$('order')
      .pipe(filter((o) => o.id === id))
      .subscribe((o) => queryClient.setQueryData(orderKey(id), o));
    return () => sub.unsubscribe();
  }, [id]);
}

/** Should no event come (a dropped socket), the order is read again a little after its expiry. */
function useSettleFallback(id: string, order: Order | undefined): void {
  const due = order?.status === 'open' ? order.expiresAt : null;
  useEffect(() => {
    if (due === null) return;
    const timer = setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: orderKey(id) }),
      Math.max(0, due - serverNow()) + 5_000,
    );
    return () => clearTimeout(timer);
  }, [id, due]);
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="order-detail__row">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

function TickText({ tick }: { tick: Order['entry'] }) {
  const { lang } = useFormat();
  if (!tick) return <>—</>;
  return (
    <span className="num">
      {formatPriceAsIs(tick.price, lang)}
      <small className="order-detail__tick">
        #{tick.seq} · {formatStamp(tick.ts, lang)}
      </small>
    </span>
  );
}

function OrderFacts({ order }: { order: Order }) {
  const { t } = useTranslation();
  const { lang, date } = useFormat();
  const outcome = useOutcomeText();
  const duration = useDurationLabel();
  const products = useApiQuery(queryKeys.products, () => getProducts());
  const productName = useProductName();
  const product =
    products.status === 'ready' ? products.data.find((p) => p.id === order.productId) : undefined;
  const open = order.status === 'open';
  return (
    <section className="order-detail__card" data-testid="order-facts" data-status={order.status}>
      <div className="order-detail__title">
        <span
          className={`result__status result__status--${order.status}`}
          data-testid="order-status"
        >
          {t(`orders.status.${order.status}`)}
        </span>
        <strong>{product ? productName(product) : order.productId}</strong>
        <DirectionLabel direction={order.direction} />
        {order.mode === 'practice' && (
          <span className="result__practice">{t('orders.practice.bandLabel')}</span>
        )}
      </div>
      {!open && (
        <p
          className={`order-detail__outcome pnl--${signOf(order.pnl)}`}
          data-testid="order-outcome"
        >
          {outcome(order)}
        </p>
      )}
      <dl className="order-detail__facts">
        <Row label={t('results.detail.number')} testId="order-number">
          <span className="num">{orderNumber(order.id)}</span>
        </Row>
        <Row label={t('orders.ticket.amount')}>
          <span className="num">{formatMoney(order.amount, lang)}</span>
        </Row>
        <Row label={t('orders.ticket.duration')}>{duration(order.duration)}</Row>
        <Row label={t('orders.ticket.rate')}>
          <span className="num">{formatRate(order.rate, lang)}</span>
        </Row>
        <Row label={t('orders.list.placedAt')}>
          <span className="num">
            {date(order.createdAt)} {formatStamp(order.createdAt, lang)}
          </span>
        </Row>
        {open ? (
          <Row label={t('orders.list.timeLeft')}>
            <Countdown
              expiresAt={order.expiresAt}
              testId="order-countdown"
              endedText={t('orders.list.settling')}
            />
          </Row>
        ) : (
          <Row label={t('results.detail.expiry')}>
            <span className="num">{formatStamp(order.expiresAt, lang)}</span>
          </Row>
        )}
        <Row label={t('orders.list.entry')} testId="order-entry">
          {order.entry || !open ? <TickText tick={order.entry} /> : t('orders.list.awaitingEntry')}
        </Row>
        {!open && (
          <>
            <Row
              label={order.status === 'sold' ? t('orders.list.salePrice') : t('orders.list.exit')}
              testId="order-exit"
            >
              <TickText tick={order.exit} />
            </Row>
            <Row label={t('orders.list.payout')} testId="order-payout">
              <span className="num">{formatMoney(order.payout, lang)}</span>
            </Row>
            <Row label={t('orders.list.pnl')} testId="order-pnl">
              <span className={`num pnl--${signOf(order.pnl)}`}>
                {formatSignedMoney(order.pnl, lang)}
              </span>
            </Row>
            {order.settledAt != null && (
              <Row label={t('orders.list.settledAt')}>
                <span className="num">{formatStamp(order.settledAt, lang)}</span>
              </Row>
            )}
          </>
        )}
      </dl>
    </section>
  );
}

/** /pages/order/detail?id=…: one order, its result, and the audit of its ticks against the tape. */
export function OrderDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const valid = isOrderId(id);
  useLiveOrder(id);
  const order = useApiQuery(orderKey(id), () =>
    valid ? getOrder(id) : Promise.reject(new ApiError('NOT_FOUND', 'not found', 404)),
  );
  useSettleFallback(id, order.status === 'ready' ? order.data : undefined);
  const notFound =
    order.status === 'error' && order.error instanceof ApiError && order.error.status === 404;

  return (
    <>
      <PageHeader title={t('pages.orderDetail')} back />
      <div className="order-detail" data-testid="order-detail">
        {order.status === 'loading' && <LoadingState />}
        {notFound && (
          <p className="state" data-state="not-found" data-testid="order-not-found">
            {t('results.detail.notFound')}
          </p>
        )}
        {order.status === 'error' && !notFound && (
          <ErrorState error={order.error} onRetry={order.retry} />
        )}
        {order.status === 'ready' && (
          <>
            <OrderFacts order={order.data} />
            <SaleFacts order={order.data} />
            <section
              className="order-detail__card audit"
              aria-labelledby="audit-h"
              data-testid="audit"
            >
              <h2 id="audit-h" className="audit__title">
                {t('results.audit.title')}
              </h2>
              <p className="audit__rule">{t('results.audit.tapeNote')}</p>
              <TapeAudit order={order.data} side="entry" />
              {order.data.status === 'sold' ? (
                <TapeAudit order={order.data} side="sale" />
              ) : (
                order.data.status !== 'open' && <TapeAudit order={order.data} side="exit" />
              )}
              {order.data.status !== 'open' && order.data.status !== 'sold' && (
                <p className="audit__rule">{t('results.audit.outcomeRule')}</p>
              )}
            </section>
          </>
        )}
      </div>
    </>
  );
}
