import { useTranslation } from 'react-i18next';

/** t over the console's own texts (i18n/en.json); the trader app's typed keys do not apply here. */
export type OpsT = (key: string, options?: Record<string, unknown>) => string;

export function useT(): { t: OpsT; lang: string } {
  const { t, i18n } = useTranslation();
  return { t: t as unknown as OpsT, lang: i18n.language };
}
