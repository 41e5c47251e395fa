import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { messageText } from '@client/components/error-text';
import type { MessageKey } from './validation';

/**
 * A checkbox the form requires (an agreement): the box and its label one tap target, its message
 * tied to it like a text field's, and `links` (what the agreement refers to) under it.
 */
export function CheckField({
  label,
  testId,
  checked,
  error,
  onChange,
  links,
}: {
  label: string;
  testId: string;
  checked: boolean;
  error: MessageKey | null;
  onChange: (checked: boolean) => void;
  links?: ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className={`field check-field${error ? ' field--invalid' : ''}`}>
      <label className="check-field__row" htmlFor={id}>
        <input
          type="checkbox"
          id={id}
          data-testid={testId}
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>{label}</span>
      </label>
      {links && <p className="check-field__links">{links}</p>}
      {error && (
        <p className="field__error" id={`${id}-error`} data-testid={`${testId}-error`}>
          {messageText(t, error)}
        </p>
      )}
    </div>
  );
}
