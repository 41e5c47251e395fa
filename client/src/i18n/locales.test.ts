import { describe, expect, it } from 'vitest';
import { errorCodes } from '@shared/errors';
import { languages, type Language } from './languages';
import {
  flattenLocale,
  localePathsFor,
  mergeLocales,
  parseLocalePath,
  type LocaleTree,
} from './resources';

const files = import.meta.glob<LocaleTree>('./locales/**/*.json', {
  eager: true,
  import: 'default',
});
const features = [...new Set(Object.keys(files).map((p) => parseLocalePath(p)?.feature))]
  .filter((f): f is string => !!f)
  .sort();
const file = (feature: string, lang: string): LocaleTree => {
  const tree = files[`./locales/${feature}/${lang}.json`];
  if (!tree) throw new Error(`missing locales/${feature}/${lang}.json`);
  return tree;
};
const merged = (lang: Language) =>
  flattenLocale(mergeLocales(localePathsFor(lang, Object.keys(files)).map((p) => files[p]!)));

/**
 * Texts that may equal the English one, per language: loanwords and names the language really
 * uses. Keep this list short; anything else equal to English is an untranslated copy.
 */
const sameAsEnglish: Record<string, readonly Language[]> = {
  'app.title': ['id', 'fr', 'de'], // "Trading" is the word in use
  'pages.detail': ['id', 'fr'],
  'pages.recharge': ['id'], // "Deposit" is usual in Indonesian apps
  'market.volumeShort': ['id'], // "Vol {{value}}"
  'market.status.maintenance': ['fr'],
  'content.home.deposit': ['id'], // the glossary's term
  'tabs.orders': ['de'], // "Orders", as German brokers label the tab
  'market.sort.name': ['de'],
  'orders.positions.group': ['fr'], // "{{count}} positions" is French too
  'market.sort.volume': ['fr', 'id'],
  // Chart intervals as German trading apps write them: short enough for seven tabs on a phone.
  'market.interval.5s': ['de'],
  'market.interval.15s': ['de'],
  'market.interval.1m': ['de'],
  'market.interval.5m': ['de'],
  'market.interval.15m': ['de'],
  'market.interval.1h': ['de'],
  'market.interval.4h': ['de'],
  // Indicator abbreviations as trading apps print them in each market (French writes MM); the
  // full names read out by screen readers are translated, Indonesian keeping the English terms.
  'market.indicators.ma': ['zh-CN', 'zh-TW', 'ja', 'ko', 'de', 'id', 'th', 'vi'],
  'market.indicators.boll': ['zh-CN', 'zh-TW'],
  'market.indicators.maName': ['id'],
  'market.indicators.bollName': ['id'],
};
/** Codes, units, figures and variables, which no language translates. */
const isUntranslatable = (text: string) =>
  !/\p{L}/u.test(text.replace(/\b(USDT|TRC20|ERC20)\b|\{\{\w+\}\}/g, ''));

// Visible texts used by the source (t('a.b') calls), read as raw text through Vite.
// The operator console (client/src/ops) has its own texts and its own test (ops/i18n).
const sources = import.meta.glob<string>(
  ['../**/*.tsx', '../**/*.ts', '!../**/*.test.ts', '!../ops/**'],
  {
    eager: true,
    query: '?raw',
    import: 'default',
  },
);

describe('locale files', () => {
  it('are all under a feature folder, and common/ and market/ exist', () => {
    for (const path of Object.keys(files)) expect(parseLocalePath(path), path).not.toBeNull();
    expect(features).toEqual(expect.arrayContaining(['common', 'market']));
  });

  it.each(features)('%s/ has a file for each of the ten languages and nothing else', (feature) => {
    const langs = Object.keys(files)
      .map(parseLocalePath)
      .filter((p) => p?.feature === feature)
      .map((p) => p?.lang);
    expect(langs.sort()).toEqual([...languages].sort());
  });

  it.each(features.filter((f) => f !== 'common'))(
    '%s/ holds only its own top-level key, so folders never collide',
    (feature) => {
      for (const lang of languages) expect(Object.keys(file(feature, lang))).toEqual([feature]);
    },
  );

  it('defines no key in two folders', () => {
    for (const lang of languages) expect(() => merged(lang), lang).not.toThrow();
  });
});

describe.each(features)('locales/%s', (feature) => {
  const reference = flattenLocale(file(feature, 'zh-CN'));
  const english = flattenLocale(file(feature, 'en'));

  it.each(languages)('%s has exactly the keys of zh-CN, none empty', (lang) => {
    const texts = flattenLocale(file(feature, lang));
    expect([...texts.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of texts) expect(text.trim(), `${lang} ${key}`).not.toBe('');
  });

  it.each(languages)('%s keeps the interpolation variables', (lang) => {
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of flattenLocale(file(feature, lang))) {
      expect(vars(text), `${lang} ${key}`).toEqual(vars(reference.get(key) ?? ''));
    }
  });

  it.each(languages.filter((l) => l !== 'en'))(
    '%s is translated, not copied from English',
    (lang) => {
      const copied = [...flattenLocale(file(feature, lang))]
        .filter(([key, text]) => english.get(key) === text)
        .filter(([key, text]) => !isUntranslatable(text) && !sameAsEnglish[key]?.includes(lang))
        .map(([key]) => key);
      expect(copied).toEqual([]);
    },
  );
});

describe('merged texts', () => {
  const reference = merged('zh-CN');

  it('translate every error code of the contract (in common/)', () => {
    const common = flattenLocale(file('common', 'zh-CN'));
    for (const code of errorCodes) expect(common.has(`errors.${code}`), code).toBe(true);
  });

  it('define every key the source code asks for', () => {
    const used = new Set<string>();
    for (const text of Object.values(sources)) {
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) used.add(m[1] ?? '');
    }
    expect(used.size).toBeGreaterThan(10);
    const missing = [...used].filter((key) => !reference.has(key));
    expect(missing).toEqual([]);
  });

  it('keep the exceptions list honest: every listed key exists', () => {
    for (const key of Object.keys(sameAsEnglish)) expect(reference.has(key), key).toBe(true);
  });
});

/**
 * Names that carry a figure the control also shows (the results button's "9+" badge): the name
 * must contain the shown text as words, and screen-reader checkers (axe's
 * label-content-name-mismatch, WCAG 2.5.3) drop whatever is in parentheses, full-width ones too,
 * before comparing. A figure in parentheses is a name that does not say what is shown.
 */
const namesWithShownFigure = ['results.open'];

describe('accessible names that carry a shown figure', () => {
  it.each(languages)('%s: keeps the figure out of parentheses', (lang) => {
    const texts = merged(lang);
    for (const key of namesWithShownFigure) {
      const text = texts.get(key);
      expect(text, key).toContain('{{n}}');
      const outside = text!.normalize('NFKD').replace(/\([^()]*\)/g, '');
      expect(outside, `${key} in ${lang}: "${text}"`).toContain('{{n}}');
    }
  });
});

describe('loader helpers', () => {
  it('finds one file per feature for a language', () => {
    const paths = [
      './locales/market/en.json',
      './locales/common/en.json',
      './locales/common/ja.json',
    ];
    expect(localePathsFor('en', paths)).toEqual([
      './locales/common/en.json',
      './locales/market/en.json',
    ]);
    expect(parseLocalePath('./locales/en.json')).toBeNull();
  });

  it('merges feature files and refuses a key defined twice', () => {
    expect(mergeLocales([{ a: { x: '1' } }, { a: { y: '2' }, b: '3' }])).toEqual({
      a: { x: '1', y: '2' },
      b: '3',
    });
    expect(() => mergeLocales([{ a: { x: '1' } }, { a: { x: '2' } }])).toThrow(/a\.x/);
    expect(() => mergeLocales([{ a: '1' }, { a: { x: '2' } }])).toThrow(/a/);
  });
});
