import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  defaultLanguage,
  detectLanguage,
  languageStorageKey,
  languages,
  type Language,
} from './languages';

// One lazy chunk per language: only the language in use (and the zh-CN fallback) is fetched.
const loaders = import.meta.glob<ResourceKey>('./locales/*.json', { import: 'default' });

const lazyLocales: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const load = loaders[`./locales/${language}.json`];
    if (!load) {
      callback(new Error(`no locale file for ${language}`), false);
      return;
    }
    load().then(
      (resources) => callback(null, resources),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), false),
    );
  },
};

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(languageStorageKey);
  } catch {
    return null; // storage blocked (private mode, sandboxed frame): detect from the browser
  }
}

/** Starts i18next in the stored or detected language; resolves once its texts are loaded. */
export async function initI18n(): Promise<void> {
  const lng = detectLanguage(storedLanguage(), navigator.languages ?? [navigator.language]);
  i18next.on('languageChanged', (lang) => {
    document.documentElement.lang = lang;
  });
  await i18next
    .use(lazyLocales)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: defaultLanguage,
      supportedLngs: languages,
      load: 'currentOnly',
      interpolation: { escapeValue: false }, // React escapes
      react: { useSuspense: true },
    });
  document.documentElement.lang = lng;
}

/** Switches language and remembers the choice under `i18nLang`. */
export async function setLanguage(lang: Language): Promise<void> {
  try {
    localStorage.setItem(languageStorageKey, lang);
  } catch {
    // not persisted; the switch still applies to this visit
  }
  await i18next.changeLanguage(lang);
}

export { i18next };
