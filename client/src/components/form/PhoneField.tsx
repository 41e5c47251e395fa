import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageText } from '@client/components/error-text';
import { countryList } from '@client/components/wallet/countries';
import { dialCodes, phoneInput } from './dial-codes';
import { PickerDialog } from './PickerDialog';
import type { MessageKey } from './validation';

/**
 * The phone at registration: a country calling code, picked from a searchable list (name in the
 * user's language or in English, ISO code or digits), and the national number. A number typed
 * whole with + keeps its own code. The form joins them (dial-codes.ts: fullPhone).
 */
export function PhoneField({
  name,
  label,
  hint,
  testId,
  value,
  error,
  country,
  onCountry,
  onValue,
  onBlur,
}: {
  name: string;
  label: string;
  hint: string;
  testId: string;
  value: string;
  error: MessageKey | null;
  country: string;
  onCountry: (country: string) => void;
  onValue: (value: string) => void;
  onBlur: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const id = useId();
  const [open, setOpen] = useState(false);
  const options = useMemo(
    () =>
      countryList(lang)
        .filter((c) => c.code in dialCodes)
        .map((c) => ({
          value: c.code,
          label: c.name,
          aside: `+${dialCodes[c.code]}`,
          search: `${c.search} ${dialCodes[c.code]}`,
        })),
    [lang],
  );
  const whole = value.startsWith('+');
  const message = error ? `${id}-error` : `${id}-hint`;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="phone-field__row">
        <button
          type="button"
          className="phone-field__code"
          data-testid={`${testId}-country`}
          data-value={country}
          aria-haspopup="dialog"
          aria-label={t('account.phoneCountry.label', {
            code: `+${dialCodes[country] ?? ''}`,
          })}
          // A whole number typed with + carries its own code: the picker stands aside.
          aria-disabled={whole || undefined}
          onClick={() => !whole && setOpen(true)}
        >
          <span className="num">{whole ? '+' : `+${dialCodes[country] ?? ''}`}</span>
          <span aria-hidden="true">▾</span>
        </button>
        <input
          id={id}
          name={name}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          enterKeyHint="next"
          maxLength={16}
          className="field__input"
          data-testid={testId}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={message}
          onChange={(event) => onValue(phoneInput(event.target.value))}
          onBlur={onBlur}
        />
      </div>
      {error ? (
        <p className="field__error" id={`${id}-error`} data-testid={`${testId}-error`}>
          {messageText(t, error)}
        </p>
      ) : (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {open && (
        <PickerDialog
          title={t('account.phoneCountry.title')}
          testId={`${testId}-country`}
          options={options}
          selected={country}
          searchLabel={t('account.phoneCountry.search')}
          onPick={(code) => {
            onCountry(code);
            setOpen(false);
          }}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
