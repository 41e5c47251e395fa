import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { messageText } from '@client/components/error-text';
import type { MessageKey } from './validation';

type NativeProps = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  | 'type'
  | 'inputMode'
  | 'autoComplete'
  | 'maxLength'
  | 'enterKeyHint'
  | 'autoCapitalize'
  | 'readOnly'
>;

/**
 * A labelled input with an optional hint and its message. The message is tied to the input
 * (aria-invalid + aria-describedby), so a screen reader reads what is wrong with the field.
 */
export function TextField({
  name,
  label,
  testId,
  value,
  error,
  errorText,
  hint,
  onValue,
  onBlur,
  filter,
  readBack,
  ...native
}: NativeProps & {
  name: string;
  label: string;
  testId: string;
  value: string;
  error: MessageKey | null;
  /** A message already in words (with the bound it broke: "Minimum 10.00"), shown before `error`. */
  errorText?: string | null;
  hint?: string;
  onValue: (value: string) => void;
  onBlur: () => void;
  /** Rewrites what is typed (digits only for a keypad field). */
  filter?: (value: string) => string;
  /**
   * The value read back whole under the input, with its label: a number longer than a phone's
   * input (an IBAN is up to 34 characters) scrolls inside it, and its end is out of sight.
   */
  readBack?: { label: string; text: string };
}) {
  const { t } = useTranslation();
  const id = useId();
  // A password can be shown while typed (a phone's keyboard hides typos): the eye button.
  const [shown, setShown] = useState(false);
  const secret = native.type === 'password';
  const errorShown = errorText ?? (error ? messageText(t, error) : null);
  const message = errorShown ? `${id}-error` : hint ? `${id}-hint` : undefined;
  const describedBy =
    [readBack && `${id}-read-back`, message].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${errorShown ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className={secret ? 'field__control field__control--secret' : 'field__control'}>
        <input
          {...native}
          type={secret && shown ? 'text' : native.type}
          id={id}
          name={name}
          className="field__input"
          data-testid={testId}
          value={value}
          aria-invalid={errorShown ? true : undefined}
          aria-describedby={describedBy}
          spellCheck={false}
          onChange={(event) => onValue(filter ? filter(event.target.value) : event.target.value)}
          onBlur={onBlur}
        />
        {secret && (
          <button
            type="button"
            className="field__reveal"
            data-testid={`${testId}-toggle`}
            aria-label={t('common.showPassword')}
            aria-pressed={shown}
            aria-controls={id}
            onClick={() => setShown((s) => !s)}
            // Keeps the focus (and the keyboard) in the input while the button is pressed.
            onMouseDown={(event) => event.preventDefault()}
          >
            <EyeIcon open={!shown} />
          </button>
        )}
      </div>
      {readBack && (
        <p className="field__read-back" id={`${id}-read-back`}>
          <span className="field__read-back-label">{readBack.label}</span>
          <span className="field__read-back-text" data-testid={`${testId}-read-back`}>
            {readBack.text}
          </span>
        </p>
      )}
      {errorShown ? (
        <p className="field__error" id={`${id}-error`} data-testid={`${testId}-error`}>
          {errorShown}
        </p>
      ) : (
        hint && (
          <p className="field__hint" id={`${id}-hint`}>
            {hint}
          </p>
        )
      )}
    </div>
  );
}

/** An eye, struck through while the password is shown (press again to hide it). */
function EyeIcon({ open }: { open: boolean }) {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
      {!open && (
        <path d="M4 20 20 4" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      )}
    </svg>
  );
}

/** The message above a form: a refusal that belongs to no single input. */
export function FormError({ message }: { message: MessageKey | null }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <p className="form-error" role="alert" data-testid="form-error">
      {messageText(t, message)}
    </p>
  );
}

/** The form's submit button; disabled while the form is being sent. */
export function SubmitButton({
  busy,
  disabled = false,
  children,
}: {
  busy: boolean;
  /** Not yet sendable (a field says why). */
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      className="button button--block"
      data-testid="submit"
      disabled={busy || disabled}
      aria-busy={busy || undefined}
      // Pressing it must not take the focus from the field: leaving a field checks it, the
      // message that appears moves this button down, and the release lands beside it (a lost
      // tap). The submit checks every field anyway.
      onMouseDown={(event) => event.preventDefault()}
    >
      {children}
    </button>
  );
}
