import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  defaultLanguage,
  detectLanguage,
  languageStorageKey,
  languages,
} from '@client/i18n/languages';
import { drawHomeShell, type HomeShellData } from './home-shell';
import { parseThemePreference, resolveTheme, themeStorageKey } from './theme';

// index.html's first paint decides the language and theme before the app does: it must decide
// as the app then does (i18n/languages.ts, app/theme.ts), or the page would change under the
// reader once the app starts. The drawing itself is checked in a browser (tests/e2e/content).
const data: HomeShellData = {
  homeHashes: [''],
  signUpHref: '',
  logInHref: '',
  languages: [...languages],
  defaultLanguage,
  names: {},
  texts: {},
  keys: { language: languageStorageKey, theme: themeStorageKey, token: 'token', appInfo: 'info' },
};

function firstPaint(stored: Record<string, string>, preferred: string[], systemDark: boolean) {
  const root = { dataset: {} as Record<string, string>, lang: '' };
  vi.stubGlobal('document', { documentElement: root, querySelector: () => null });
  vi.stubGlobal('localStorage', { getItem: (key: string) => stored[key] ?? null });
  vi.stubGlobal('navigator', { languages: preferred, language: preferred[0] });
  vi.stubGlobal('matchMedia', () => ({ matches: systemDark }));
  vi.stubGlobal('location', { hash: '#/pages/index/index' });
  drawHomeShell(data);
  return { lang: root.lang, theme: root.dataset.theme };
}

afterEach(() => vi.unstubAllGlobals());

describe("Home's first paint", () => {
  const cases: [string | undefined, string[]][] = [
    [undefined, ['en-US', 'fr']],
    [undefined, ['pt-BR', 'de-DE']],
    [undefined, ['zh-HK']],
    [undefined, ['zh-Hant-TW']],
    [undefined, ['zh']],
    [undefined, ['zh_SG']],
    [undefined, ['pt-BR', 'es']],
    [undefined, []],
    ['ko', ['en-US']],
    ['xx', ['ja-JP']],
    ['', ['th']],
  ];
  it.each(cases)('picks the language the app picks (stored %s, preferred %j)', (stored, tags) => {
    const { lang } = firstPaint(stored === undefined ? {} : { i18nLang: stored }, tags, false);
    expect(lang).toBe(detectLanguage(stored ?? null, tags));
  });

  it.each([
    [undefined, false],
    [undefined, true],
    ['light', true],
    ['dark', false],
    ['system', true],
    ['sepia', false],
  ] as const)('picks the theme the app picks (stored %s, system dark %s)', (stored, dark) => {
    const { theme } = firstPaint(stored === undefined ? {} : { theme: stored }, ['en'], dark);
    expect(theme).toBe(resolveTheme(parseThemePreference(stored), dark));
  });
});
