// A relative path, not @shared: the build's config imports this module (the home shell's
// texts, client/vite.config.ts), and the config is loaded without the app's aliases.
import { defaultLanguage, languages, type Language } from '../../../shared/src/languages';

/** The ten languages of product/DECISIONS.md ("Languages"), one list shared with the server. */
export { defaultLanguage, languages, type Language };
/** Local-storage key of the user's choice (seed spec §1). */
export const languageStorageKey = 'i18nLang';

/**
 * Each language named in itself, for the language switch. These are names, not translations:
 * a reader looks for their own language written their own way, whatever the page is in now.
 */
export const languageNames: Record<Language, string> = {
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  en: 'English',
  ja: '日本語',
  th: 'ไทย',
  vi: 'Tiếng Việt',
  id: 'Bahasa Indonesia',
  ko: '한국어',
  fr: 'Français',
  de: 'Deutsch',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/**
 * Maps one BCP 47 tag onto the ten, or null. Chinese is split by script/region: Traditional
 * (zh-TW, zh-HK, zh-MO, zh-Hant…) → zh-TW, any other zh → zh-CN. Every other tag matches by its
 * primary subtag ("en-GB" → en, "pt-BR" → null).
 */
export function matchLanguage(tag: string): Language | null {
  const parts = tag.trim().replace(/_/g, '-').toLowerCase().split('-');
  const primary = parts[0] ?? '';
  if (primary === 'zh') {
    const traditional = parts.some((p) => p === 'tw' || p === 'hk' || p === 'mo' || p === 'hant');
    return traditional ? 'zh-TW' : 'zh-CN';
  }
  return languages.find((lang) => lang === primary) ?? null;
}

/**
 * The language to start in: the stored choice when it is one of the ten, else the first of the
 * browser's preferred languages that maps onto the ten, else zh-CN.
 */
export function detectLanguage(
  stored: string | null | undefined,
  preferred: readonly string[],
): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of preferred) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return defaultLanguage;
}
