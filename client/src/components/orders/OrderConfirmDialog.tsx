import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './orders.css';

export interface ConfirmRow {
  label: string;
  value: ReactNode;
  testId?: string;
}

/**
 * The order's confirmation step: what will be bought, as a list, with OK and Cancel. Behaves like
 * the shared ConfirmDialog (native modal <dialog>, focus starts on Cancel, Escape cancels, Tab
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
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    cancelRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);

  const trapTab = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return;
    const buttons = [...(ref.current?.querySelectorAll('button:not(:disabled)') ?? [])];
    const first = buttons[0];
    const last = buttons[buttons.length - 1];
    if (!(first instanceof HTMLElement) || !(last instanceof HTMLElement)) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className="dialog order-confirm"
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid="confirm-order"
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      onKeyDown={trapTab}
    >
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
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
    </dialog>
  );
}
