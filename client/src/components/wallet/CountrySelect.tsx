import { useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PickerDialog, type PickerOption } from '@client/components/form/PickerDialog';
import { messageText } from '@client/components/error-text';
import type { MessageKey } from '@client/components/form/validation';
import { countryList, countryName, searchCountries, type Country } from './countries';
import './picker.css';

/**
 * Nationality: a button that opens a searchable list of every country (shared/src/countries.ts)
 * named in the user's language. The value is the ISO code the server takes.
 */
export function CountrySelect({
  label,
  testId,
  value,
  error,
  onValue,
  onBlur,
}: {
  label: string;
  testId: string;
  value: string;
  error: MessageKey | null;
  onValue: (code: string) => void;
  onBlur: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const id = useId();
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
    onBlur();
  };
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <span className="field__label" id={`${id}-label`}>
        {label}
      </span>
      <button
        type="button"
        className="field__input select-button"
        data-testid={testId}
        data-value={value}
        aria-haspopup="dialog"
        aria-labelledby={`${id}-label ${id}-value`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onClick={() => setOpen(true)}
      >
        <span id={`${id}-value`} className={value ? '' : 'select-button__placeholder'}>
          {value ? countryName(value, lang) : t('wallet.country.choose')}
        </span>
        <span aria-hidden="true">▾</span>
      </button>
      {error && (
        <p className="field__error" id={`${id}-error`} data-testid={`${testId}-error`}>
          {messageText(t, error)}
        </p>
      )}
      {open && (
        <CountryDialog
          title={label}
          lang={lang}
          selected={value}
          testId={testId}
          onPick={(code) => {
            onValue(code);
            close();
          }}
          onClose={close}
        />
      )}
    </div>
  );
}

const asOption = (c: Country): PickerOption => ({ value: c.code, label: c.name, aside: c.code });

/** The countries named in `lang`, searchable by name or code (an exact code first). */
function CountryDialog({
  title,
  lang,
  selected,
  testId,
  onPick,
  onClose,
}: {
  title: string;
  lang: string;
  selected: string;
  testId: string;
  onPick: (code: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const all = useMemo(() => countryList(lang), [lang]);
  const filter = useCallback((query: string) => searchCountries(all, query).map(asOption), [all]);
  return (
    <PickerDialog
      title={title}
      testId={testId}
      options={all.map(asOption)}
      selected={selected}
      searchLabel={t('wallet.country.search')}
      filter={filter}
      optionTestId={(code) => `country-${code}`}
      onPick={onPick}
      onClose={onClose}
    />
  );
}
