import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '@client/i18n';
import { isLanguage, languageNames, languages } from '@client/i18n/languages';

// The picker (and the dialog library under it) loads when first opened: Home's first screen
// shows the button only, and a phone should not parse a modal's code to draw it.
const PickerDialog = lazy(() =>
  import('./form/PickerDialog').then((m) => ({ default: m.PickerDialog })),
);

const options = languages.map((lang) => ({ value: lang, label: languageNames[lang], lang }));

/**
 * The language switch (home page and settings): a button naming the current language (in
 * itself) that opens the app's picker (a modal list: keyboard and screen reader friendly, 44 px
 * rows). `showLabel` shows "Language" beside it (settings rows).
 */
export function LanguageSelect({
  testId = 'language-button',
  showLabel = false,
}: {
  testId?: string;
  showLabel?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const current = i18n.resolvedLanguage ?? i18n.language;
  const name = isLanguage(current) ? languageNames[current] : current;
  return (
    <div className={`language-select${showLabel ? ' language-select--row' : ''}`}>
      <span id={`${id}-label`} className={showLabel ? 'language-select__label' : 'visually-hidden'}>
        {t('common.language')}
      </span>
      <button
        type="button"
        className="language-select__button"
        data-testid={testId}
        data-value={current}
        aria-haspopup="dialog"
        aria-labelledby={`${id}-label ${id}-value`}
        onClick={() => setOpen(true)}
      >
        <span id={`${id}-value`} lang={current}>
          {name}
        </span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <Suspense fallback={null}>
          <PickerDialog
            title={t('common.language')}
            testId="language"
            options={options}
            selected={current}
            onPick={(lang) => {
              setOpen(false);
              if (isLanguage(lang)) void setLanguage(lang);
            }}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
