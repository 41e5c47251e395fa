import { useTranslation } from 'react-i18next';
import {
  setThemePreference,
  themePreferences,
  useTheme,
  type ThemePreference,
} from '@client/app/theme';
import { ChoicePicker } from '@client/components/ChoicePicker';

const labelKey = {
  system: 'account.settings.themeSystem',
  light: 'account.settings.themeLight',
  dark: 'account.settings.themeDark',
} as const satisfies Record<ThemePreference, string>;

/** Settings row: follow the system, or always light, or always dark (app/theme.ts). */
export function ThemeSelect() {
  const { t } = useTranslation();
  const { preference } = useTheme();
  return (
    <ChoicePicker
      label={t('account.settings.theme')}
      testId="theme-select"
      value={preference}
      choices={themePreferences.map((choice) => ({ value: choice, label: t(labelKey[choice]) }))}
      onValue={setThemePreference}
    />
  );
}
