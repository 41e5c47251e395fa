import { useTranslation } from 'react-i18next';
import { setLanguage } from '@client/i18n';
import { isLanguage, languageNames, languages } from '@client/i18n/languages';

/** The language switch (home page, seed spec §2): a native select, easy on every phone. */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <label className="language-select">
      <span className="visually-hidden">{t('common.language')}</span>
      <select
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
    </label>
  );
}
