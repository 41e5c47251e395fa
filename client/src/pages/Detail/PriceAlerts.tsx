import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ALERT_PRICE_RE } from '@shared/alerts/model';
import type { AlertDirection, PriceAlert } from '@client/api/alerts';
import { Dialog, DialogTitle } from '@client/components/Dialog';
import { TextField } from '@client/components/form/TextField';
import { errorText } from '@client/components/error-text';
import { useFormat } from '@client/i18n/useFormat';
import type { LiveProduct } from '@client/state/live-product';
import { useAlertChanges, useProductAlerts } from '@client/state/price-alerts';
import { showToast } from '@client/state/toast';
import './alerts.css';

/** The trade screen's bell (44 px): opens the product's price alerts. */
export function PriceAlertsButton({ product }: { product: LiveProduct }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="alerts-bell"
        aria-label={t('alerts.button')}
        data-testid="price-alerts-button"
        onClick={() => setOpen(true)}
      >
        {/* Drawn, not an emoji: the same bell on every phone, in the theme's colour. */}
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width="22"
          height="22"
          className="alerts-bell__icon"
        >
          <path d="M12 3a6 6 0 0 0-6 6v3.6L4.3 16h15.4L18 12.6V9a6 6 0 0 0-6-6Z" />
          <path d="M9.8 19a2.3 2.3 0 0 0 4.4 0" />
        </svg>
      </button>
      {open && <PriceAlertsDialog product={product} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * Sets an alert on the product (above or below a price, the live price prefilled) and lists its
 * active alerts with delete. The server evaluates them on the tape and fires each once.
 */
function PriceAlertsDialog({ product, onClose }: { product: LiveProduct; onClose: () => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [direction, setDirection] = useState<AlertDirection>('above');
  const [price, setPrice] = useState(product.price ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const list = useProductAlerts(product.id);
  const { create, remove } = useAlertChanges(product.id);
  const shown = (p: string) => format.price(p, product.precision);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = price.trim();
    if (!ALERT_PRICE_RE.test(value)) {
      setProblem(t('alerts.priceInvalid'));
      return;
    }
    setProblem(null);
    create.mutate(
      { direction, price: value },
      {
        onSuccess: () => showToast(t('alerts.created')),
        onError: (error) => setProblem(errorText(t, error)),
      },
    );
  };

  return (
    <Dialog className="dialog alerts-dialog" testId="price-alerts-dialog" onClose={onClose}>
      <DialogTitle className="dialog__title">
        {t('alerts.title', { product: product.name })}
      </DialogTitle>
      {product.price && (
        <p className="alerts-dialog__current" data-testid="price-alerts-current">
          {t('alerts.current', { price: shown(product.price) })}
        </p>
      )}
      <form className="alerts-dialog__form" onSubmit={submit} noValidate>
        <div className="alerts-dialog__directions" role="radiogroup">
          {(['above', 'below'] as const).map((d) => (
            <button
              key={d}
              type="button"
              role="radio"
              aria-checked={direction === d}
              className="alerts-dialog__direction"
              data-testid={`price-alerts-${d}`}
              onClick={() => setDirection(d)}
            >
              {t(`alerts.${d}`)}
            </button>
          ))}
        </div>
        <TextField
          name="price"
          label={t('alerts.price')}
          testId="price-alerts-price"
          inputMode="decimal"
          autoComplete="off"
          value={price}
          error={null}
          errorText={problem}
          onValue={setPrice}
          onBlur={() => undefined}
        />
        <button
          type="submit"
          className="button"
          data-testid="price-alerts-set"
          disabled={create.isPending}
        >
          {t('alerts.set')}
        </button>
      </form>
      <h3 className="alerts-dialog__heading">{t('alerts.active')}</h3>
      <AlertList
        state={list}
        shown={shown}
        onDelete={(id) => remove.mutate(id, { onError: (error) => showToast(errorText(t, error)) })}
      />
      <button
        type="button"
        className="button button--secondary"
        data-testid="price-alerts-close"
        onClick={onClose}
      >
        {t('alerts.close')}
      </button>
    </Dialog>
  );
}

function AlertList({
  state,
  shown,
  onDelete,
}: {
  state: ReturnType<typeof useProductAlerts>;
  shown: (price: string) => string;
  onDelete: (id: string) => void;
}) {
  const { t } = useTranslation();
  if (state.isPending) return <p className="alerts-dialog__note">{t('alerts.loading')}</p>;
  if (state.isError)
    return (
      <p className="alerts-dialog__note" role="alert">
        {t('alerts.loadError')}{' '}
        <button type="button" className="alerts-dialog__retry" onClick={() => void state.refetch()}>
          {t('alerts.retry')}
        </button>
      </p>
    );
  const active: PriceAlert[] = state.data.active;
  if (!active.length)
    return (
      <p className="alerts-dialog__note" data-testid="price-alerts-empty">
        {t('alerts.empty')}
      </p>
    );
  return (
    <ul className="alerts-dialog__list" data-testid="price-alerts-list">
      {active.map((a) => (
        <li key={a.id} className="alerts-dialog__item">
          <span>
            {t(a.direction === 'above' ? 'alerts.itemAbove' : 'alerts.itemBelow', {
              price: shown(a.price),
            })}
          </span>
          <button
            type="button"
            className="alerts-dialog__delete"
            aria-label={t('alerts.delete', { price: shown(a.price) })}
            data-testid="price-alerts-delete"
            onClick={() => onDelete(a.id)}
          >
            <span aria-hidden="true">✕</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
