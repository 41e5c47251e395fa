import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import zhCN from './zh-CN.json';

/**
 * The console's languages (DECISIONS.md): English and Chinese, bundled (two small files), chosen
 * by the operator and remembered in this browser; the first visit follows the browser.
 */
export const opsLanguages = [
  { code: 'en', label: 'English' },
  { code: 'zh-CN', label: '简体中文' },
] as const;
const KEY = 'ops.lang';

function initialLanguage(): string {
  const stored = localStorage.getItem(KEY);
  if (stored && opsLanguages.some((l) => l.code === stored)) return stored;
  return navigator.languages.some((l) => l.toLowerCase().startsWith('zh')) &&
    !navigator.languages[0]?.toLowerCase().startsWith('en')
    ? 'zh-CN'
    : 'en';
}

export const opsI18n = i18next.createInstance();

export function initOpsI18n() {
  const lng = initialLanguage();
  document.documentElement.lang = lng;
  return opsI18n.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    resources: { en: { ops: en }, 'zh-CN': { ops: zhCN } },
    ns: ['ops'],
    defaultNS: 'ops',
    interpolation: { escapeValue: false },
  });
}

export async function setOpsLanguage(lng: string) {
  localStorage.setItem(KEY, lng);
  document.documentElement.lang = lng;
  await opsI18n.changeLanguage(lng);
}
