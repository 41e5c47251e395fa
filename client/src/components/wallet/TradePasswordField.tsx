import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { messageText } from '@client/components/error-text';
import { tradePasswordLength } from '@shared/accounts/model';
import { digitsOnly, type MessageKey } from '@client/components/form/validation';
import './six-box.css';

/**
 * The boxes of a six-box entry: one per digit, filled ones masked, and the box the next digit
 * goes to (the last one once all are typed).
 */
export function sixBoxes(value: string, length = tradePasswordLength) {
  const next = Math.min(value.length, length - 1);
  return Array.from({ length }, (_, i) => ({ filled: i < value.length, next: i === next }));
}

/**
 * The 6-digit transaction password that confirms a money action (a withdrawal, binding where
 * withdrawals go), shown as six boxes. Underneath is one real, labelled input (masked, the numeric
 * keypad on phones, digits only, pasting works) stretched over the boxes, so a tap anywhere on
 * them focuses it and a screen reader meets one field. Takes `form.field(…)`.
 */
export function TradePasswordField({
  hint,
  name,
  value,
  error,
  onValue,
  onBlur,
}: {
  name: string;
  value: string;
  error: MessageKey | null;
  onValue: (value: string) => void;
  onBlur: () => void;
  hint?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const note = hint ?? t('account.rules.tradePassword');
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {t('account.fields.tradePassword')}
      </label>
      <div className="six-box">
        <input
          id={id}
          name={name}
          className="six-box__input"
          data-testid="trade-password"
          type="password"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          maxLength={tradePasswordLength}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-${error ? 'error' : 'hint'}`}
          onChange={(event) =>
            onValue(digitsOnly(event.target.value).slice(0, tradePasswordLength))
          }
          onBlur={onBlur}
        />
        <div className="six-box__boxes" aria-hidden="true" data-testid="trade-password-boxes">
          {sixBoxes(value).map((box, i) => (
            <span
              key={i}
              className={`six-box__box${box.filled ? ' six-box__box--filled' : ''}${box.next ? ' six-box__box--next' : ''}`}
            >
              {box.filled ? '•' : ''}
            </span>
          ))}
        </div>
      </div>
      {error ? (
        <p className="field__error" id={`${id}-error`} data-testid="trade-password-error">
          {messageText(t, error)}
        </p>
      ) : (
        <p className="field__hint" id={`${id}-hint`}>
          {note}
        </p>
      )}
    </div>
  );
}
