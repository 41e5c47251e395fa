import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogTitle } from '@client/components/Dialog';
import './orders.css';

export interface ConfirmRow {
  label: string;
  value: ReactNode;
  testId?: string;
}

/**
 * The order's confirmation step: what will be bought, as a list, with OK and Cancel. Behaves like
 * the shared ConfirmDialog (components/Dialog.tsx: focus starts on Cancel, Escape cancels, Tab
 * stays inside), and can also carry a problem with the last try (`problem`) and a retry label.
 */
export function OrderConfirmDialog({
  title,
  rows,
  note,
  problem,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
}: {
  title: string;
  rows: ConfirmRow[];
  /** A line under the rows, e.g. how the entry price is found. */
  note?: string;
  problem: string | null;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const cancelRef = useRef<HTMLButtonElement>(null);

  return (
    <Dialog
      className="dialog order-confirm"
      testId="confirm-order"
      initialFocus={cancelRef}
      onClose={() => !busy && onCancel()}
    >
      <DialogTitle className="dialog__title">{title}</DialogTitle>
      <dl className="order-confirm__rows">
        {rows.map((row) => (
          <div key={row.label} className="order-confirm__row">
            <dt>{row.label}</dt>
            <dd className="num" data-testid={row.testId}>
              {row.value}
            </dd>
          </div>
        ))}
      </dl>
      {note && (
        <p className="order-confirm__note" data-testid="confirm-note">
          {note}
        </p>
      )}
      {problem && (
        <p className="order-confirm__problem" role="alert" data-testid="confirm-problem">
          {problem}
        </p>
      )}
      <div className="dialog__actions">
        <button
          ref={cancelRef}
          type="button"
          className="button button--secondary"
          data-testid="confirm-cancel"
          disabled={busy}
          onClick={onCancel}
        >
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button"
          data-testid="confirm-ok"
          disabled={busy}
          aria-busy={busy}
          onClick={onConfirm}
        >
          {busy ? t('orders.ticket.sending') : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
