import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const ref = useRef<HTMLDialogElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const [query, setQuery] = useState('');
  const all = useMemo(() => countryList(lang), [lang]);
  const shown = useMemo(() => searchCountries(all, query), [all, query]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    searchRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className="dialog sheet"
      aria-labelledby={titleId}
      data-testid={`${testId}-dialog`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="sheet__head">
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
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
    </dialog>
  );
}
