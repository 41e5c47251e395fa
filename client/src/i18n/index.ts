/**
 * Texts live in `locales/<feature>/<lang>.json` (common/, market/, account/, …) so that features
 * are translated in parallel without touching each other's files. For one language every
 * feature file is fetched lazily and merged into one i18next resource; the folder is only a file
 * split, keys stay global (`market.high24h` lives in market/ as `{ "market": { "high24h" } }`).
 *
 * Adding a feature folder, e.g. `wallet/`:
 * 1. Create `locales/wallet/<lang>.json` for all ten languages (languages.ts), each holding one
 *    top-level key named after the folder: `{ "wallet": { … } }`. Real translations, not English.
 * 2. In i18next.d.ts, import `./locales/wallet/zh-CN.json` as a type and add it to `Resources`,
 *    so that `t('wallet.…')` is type-checked.
 * 3. Run `npx vitest run client/src/i18n`: locales.test.ts checks every language has exactly the
 *    keys of zh-CN, none empty, none copied from English, and no key in two folders.
 * The loader below needs no change: it picks up every folder.
 */
import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { followLanguage } from '@client/app/market-colors';
import {
  defaultLanguage,
  detectLanguage,
  languageStorageKey,
  languages,
  type Language,
} from './languages';
import { localePathsFor, mergeLocales } from './resources';

// One lazy chunk per feature and language: only the language in use is fetched.
const loaders = import.meta.glob<ResourceKey>('./locales/*/*.json', { import: 'default' });

async function loadLanguage(language: string): Promise<ResourceKey> {
  const paths = localePathsFor(language, Object.keys(loaders));
  if (paths.length === 0) throw new Error(`no locale files for ${language}`);
  const parts = await Promise.all(
    paths.map((path) => loaders[path]?.() ?? Promise.reject(new Error(`no loader for ${path}`))),
  );
  return mergeLocales(parts);
}

const lazyLocales: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    // Only the language in use is fetched (issue 21: a phone's first screen waited for zh-CN's
    // texts too, as the fallback language, though every language holds every key: see
    // locales.test.ts). Should its files fail to load, zh-CN's texts stand in for them, so
    // no key is ever shown instead of a text.
    loadLanguage(language)
      .catch((err: unknown) => {
        if (language === defaultLanguage) throw err instanceof Error ? err : new Error(String(err));
        return loadLanguage(defaultLanguage);
      })
      .then(
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
    followLanguage(lang); // up is red for zh-CN, zh-TW and ko unless the user chose
  });
  await i18next
    .use(lazyLocales)
    .use(initReactI18next)
    .init({
      lng,
      // No fallback language to fetch beside the one in use (see lazyLocales above).
      fallbackLng: false,
      supportedLngs: languages,
      load: 'currentOnly',
      interpolation: { escapeValue: false }, // React escapes
      react: { useSuspense: true },
    });
  document.documentElement.lang = lng;
  followLanguage(lng);
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
