import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  isThemePreference,
  setThemePreference,
  themePreferences,
  useTheme,
  type ThemePreference,
} from '@client/app/theme';

const labelKey = {
  system: 'account.settings.themeSystem',
  light: 'account.settings.themeLight',
  dark: 'account.settings.themeDark',
} as const satisfies Record<ThemePreference, string>;

/** Settings row: follow the system, or always light, or always dark (app/theme.ts). */
export function ThemeSelect() {
  const { t } = useTranslation();
  const { preference } = useTheme();
  const id = useId();
  return (
    <div className="language-select language-select--row">
      <label htmlFor={id} className="language-select__label">
        {t('account.settings.theme')}
      </label>
      <select
        id={id}
        data-testid="theme-select"
        value={preference}
        onChange={(event) => {
          const value = event.target.value;
          if (isThemePreference(value)) setThemePreference(value);
        }}
      >
        {themePreferences.map((choice) => (
          <option key={choice} value={choice}>
            {t(labelKey[choice])}
          </option>
        ))}
      </select>
    </div>
  );
}
