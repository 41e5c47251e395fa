import { useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogTitle } from '@client/components/Dialog';
import { messageText } from '@client/components/error-text';
import type { MessageKey } from '@client/components/form/validation';
import { countryList, countryName, searchCountries } from './countries';
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
  const searchRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const all = useMemo(() => countryList(lang), [lang]);
  const shown = useMemo(() => searchCountries(all, query), [all, query]);

  return (
    <Dialog
      className="dialog sheet"
      testId={`${testId}-dialog`}
      initialFocus={searchRef}
      onClose={onClose}
    >
      <div className="sheet__head">
        <DialogTitle className="dialog__title">{title}</DialogTitle>
        <button type="button" className="button button--secondary button--small" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
      <input
        ref={searchRef}
        type="search"
        className="field__input"
        placeholder={t('wallet.country.search')}
        aria-label={t('wallet.country.search')}
        data-testid={`${testId}-search`}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <ul className="sheet__list" aria-label={title}>
        {shown.map((c) => (
          <li key={c.code}>
            <button
              type="button"
              className="sheet__option"
              aria-pressed={c.code === selected}
              data-testid={`country-${c.code}`}
              onClick={() => onPick(c.code)}
            >
              <span>{c.name}</span>
              <span className="sheet__code">{c.code}</span>
            </button>
          </li>
        ))}
        {shown.length === 0 && <li className="state">{t('common.noData')}</li>}
      </ul>
    </Dialog>
  );
}
