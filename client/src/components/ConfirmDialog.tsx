import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogDescription, DialogTitle } from './Dialog';

/**
 * A modal question with OK and Cancel (components/Dialog.tsx): the page behind is inert and
 * Escape cancels; Tab cycles between the dialog's own buttons; focus starts on Cancel (the safe
 * answer) and returns to the opener when it closes.
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
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      className="dialog"
      initialFocus={cancelRef}
      described
      // Escape cancels, except while the answer is being sent.
      onClose={() => !busy && onCancel()}
    >
      <DialogTitle className="dialog__title">{title}</DialogTitle>
      <DialogDescription className="dialog__message">{message}</DialogDescription>
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
    </Dialog>
  );
}
