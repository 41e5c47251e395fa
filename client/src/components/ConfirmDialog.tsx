import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A modal question with OK and Cancel. It is a native <dialog> opened with showModal(): the
 * page behind is inert and Escape cancels; Tab cycles between the dialog's own buttons; focus
 * starts on Cancel (the safe answer) and returns to the opener when it closes.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  danger = false,
  busy = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  message: string;
  confirmLabel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const messageId = useId();

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
      className="dialog"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(event) => {
        // Escape: React decides what closes, so the dialog never closes behind its back.
        event.preventDefault();
        if (!busy) onCancel();
      }}
      onKeyDown={trapTab}
    >
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <p id={messageId} className="dialog__message">
        {message}
      </p>
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
          className={`button${danger ? ' button--danger' : ''}`}
          data-testid="confirm-ok"
          disabled={busy}
          onClick={onConfirm}
        >
          {confirmLabel ?? t('common.confirm')}
        </button>
      </div>
    </dialog>
  );
}
