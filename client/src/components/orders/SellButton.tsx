import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Order } from '@shared/orders/model';
import { ApiError } from '@client/api/client';
import { sellOrder } from '@client/api/orders';
import { errorText } from '@client/components/error-text';
import { sellBody, sellState, type EarlyCloseTerms } from './sell';
import './sell-button.css';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { useOffline } from '@client/state/market';
import { orderAnswered } from '@client/state/order-answers';
import { serverNow } from '@client/streams';

/**
 * One sale at a time: a tap while one runs does nothing (the button is disabled too, but a
 * double tap can land before React renders). The sold order is taken as its event would be.
 */
function useSell(orderId: string): {
  busy: boolean;
  error: unknown;
  sell: (expected: number) => Promise<void>;
} {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const sell = async (expected: number) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      orderAnswered(await sellOrder(orderId, sellBody(expected)));
    } catch (e) {
      setError(e);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, error, sell };
}

/** One open position: the order, the product's latest price and its sale terms. */
export interface StripPosition {
  order: Order;
  price: string | null;
  terms: EarlyCloseTerms | undefined;
}

/**
 * An open position's "Sell" button (the trade screen's strip, the Orders page's cards) with its live value (recomputed at every render, which every tick
 * of the strip's price brings): disabled with the reason while the position waits for its entry,
 * in the product's last stretch before expiry, or without a live price. A refusal shows in
 * place; after SELL_PRICE_CHANGED the button offers the new value.
 */
export function SellButton({ order, price, terms }: StripPosition) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const offline = useOffline();
  const { busy, error, sell } = useSell(order.id);
  const { value, blocked } = sellState(order, { price, now: serverNow(), offline, terms });
  const changed = error instanceof ApiError && error.code === 'SELL_PRICE_CHANGED';
  const amount = formatMoney(value, lang);
  const label = busy
    ? t('orders.sell.selling')
    : blocked !== null || value === null
      ? t('orders.sell.label')
      : changed
        ? t('orders.sell.retry', { amount })
        : t('orders.sell.button', { amount });
  const noteId = `sell-error-${order.id}`;
  const failed = error !== null && blocked === null;
  return (
    <>
      <button
        type="button"
        className="sell-button num"
        data-testid={`sell-${order.id}`}
        data-value={value ?? ''}
        data-blocked={blocked ?? ''}
        disabled={busy || blocked !== null || value === null}
        aria-busy={busy}
        aria-describedby={failed ? noteId : undefined}
        onClick={() => value !== null && void sell(value)}
      >
        <span className="sell-button__label">
          {busy && <span className="sell-button__spinner" aria-hidden="true" />}
          {label}
        </span>
        {blocked !== null && (
          <span className="sell-button__reason" data-testid={`sell-reason-${order.id}`}>
            {t(`orders.sell.blocked.${blocked}`)}
          </span>
        )}
      </button>
      {failed && (
        <p
          id={noteId}
          className="sell-button__error"
          data-testid={noteId}
          data-code={error instanceof ApiError ? error.code : undefined}
          role="alert"
        >
          {errorText(t, error)}
        </p>
      )}
    </>
  );
}
