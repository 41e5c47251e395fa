import { opsLanguages, setOpsLanguage } from '../i18n';
import { useT } from '../useT';

/** English or Chinese, remembered in this browser. */
export function LanguageSwitch() {
  const { t, lang } = useT();
  return (
    <label className="ops-lang">
      <span>{t('nav.language')}</span>
      <select value={lang} onChange={(e) => void setOpsLanguage(e.target.value)}>
        {opsLanguages.map((l) => (
          <option key={l.code} value={l.code}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  );
}
