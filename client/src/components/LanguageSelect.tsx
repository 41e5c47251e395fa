import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '@client/i18n';
import { isLanguage, languageNames, languages } from '@client/i18n/languages';

/**
 * The language switch (home page and settings): a native select, easy on every phone. Each
 * language is named in itself. `showLabel` shows "Language" beside it (settings rows).
 */
export function LanguageSelect({
  testId,
  showLabel = false,
}: {
  testId?: string;
  showLabel?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <div className={`language-select${showLabel ? ' language-select--row' : ''}`}>
      <label htmlFor={id} className={showLabel ? 'language-select__label' : 'visually-hidden'}>
        {t('common.language')}
      </label>
      <select
        id={id}
        data-testid={testId}
        value={current}
        onChange={(event) => {
          const lang = event.target.value;
          if (isLanguage(lang)) void setLanguage(lang);
        }}
      >
        {languages.map((lang) => (
          <option key={lang} value={lang} lang={lang}>
            {languageNames[lang]}
          </option>
        ))}
      </select>
    </div>
  );
}
