import type { ReactNode } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { z } from 'zod';
import { OpsError } from '../api';
import { useT, type OpsT } from '../useT';

/** Field messages are console keys (i18n/en.json), translated where they are shown. */
export const required = (max: number) =>
  z.string().trim().min(1, 'content.required').max(max, `content.max${max}`);
/**
 * The server's refusal on the field it names (a 400 VALIDATION_FAILED, a 404 for an unknown
 * user); anything else under the form.
 */
export function refuse<F extends FieldValues>(
  err: unknown,
  fields: readonly Path<F>[],
  setError: UseFormSetError<F>,
  t: OpsT,
) {
  const field = err instanceof OpsError ? (err.field as Path<F> | undefined) : undefined;
  if (err instanceof OpsError && err.status === 404 && fields.includes('userId' as Path<F>))
    setError('userId' as Path<F>, { message: t('content.noSuchUser') });
  else if (err instanceof OpsError && err.status === 400 && field && fields.includes(field))
    setError(field, { message: err.message });
  else
    setError('root', {
      message: err instanceof OpsError && err.status === 400 ? err.message : t('common.failed'),
    });
}

export function FieldError({ message }: { message?: string }) {
  const { t } = useT();
  if (!message) return null;
  return (
    <span className="ops-field-error">{message.startsWith('content.') ? t(message) : message}</span>
  );
}

/** A console form field: its label, the control, an optional hint, and its error. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <label className="ops-field">
      <span>{label}</span>
      {children}
      {hint && <span className="ops-muted">{hint}</span>}
      <FieldError message={error} />
    </label>
  );
}

/** A console form's end: the error of the whole form, what was done, and the submit button. */
export function FormEnd({
  error,
  done,
  doneTestId,
  busy,
  submit,
}: {
  error?: string;
  done: string | null;
  doneTestId: string;
  busy: boolean;
  submit: string;
}) {
  return (
    <>
      {error && <p className="ops-alert">{error}</p>}
      {done && (
        <p className="ops-notice ops-ok" role="status" data-testid={doneTestId}>
          {done}
        </p>
      )}
      <div className="ops-row-end">
        <button type="submit" className="ops-btn ops-primary" disabled={busy}>
          {submit}
        </button>
      </div>
    </>
  );
}

/** A console dialog's buttons: Cancel, and the submit that says what it does (danger or not). */
export function DialogButtons({
  confirm,
  busy,
  danger = false,
  onClose,
}: {
  confirm: string;
  busy: boolean;
  danger?: boolean;
  onClose: () => void;
}) {
  const { t } = useT();
  return (
    <div className="ops-row-end">
      <button type="button" className="ops-btn" onClick={onClose}>
        {t('common.cancel')}
      </button>
      <button
        type="submit"
        className={`ops-btn ${danger ? 'ops-danger' : 'ops-primary'}`}
        disabled={busy}
      >
        {confirm}
      </button>
    </div>
  );
}
