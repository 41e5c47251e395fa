import { describe, expect, it } from 'vitest';
import { errorCodes } from '@shared/errors';
import { languages } from './languages';

type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<Tree>('./locales/*.json', { eager: true, import: 'default' });
const locale = (lang: string): Tree => {
  const tree = files[`./locales/${lang}.json`];
  if (!tree) throw new Error(`missing locale ${lang}`);
  return tree;
};

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const reference = flatten(locale('zh-CN'));
const english = flatten(locale('en'));
// Texts that are legitimately the same in English and elsewhere (names, codes, short units).
const sameAsEnglishAllowed =
  /^(app\.title|pages\.detail|pages\.recharge.*|market\.interval\..*|market\.volumeShort|market\.status\.maintenance|market\.category\.crypto|tabs\.product|pages\.product|market\.change24h|market\.volume24h|common\.noData)$/;

// Visible texts used by the source (t('a.b') calls), read as raw text through Vite.
const sources = import.meta.glob<string>(['../**/*.tsx', '../**/*.ts', '!../**/*.test.ts'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

describe('locales', () => {
  it('has a file for each of the ten languages and nothing else', () => {
    expect(Object.keys(files).sort()).toEqual(
      languages.map((lang) => `./locales/${lang}.json`).sort(),
    );
  });

  it.each(languages)('%s has exactly the keys of zh-CN, none empty', (lang) => {
    const texts = flatten(locale(lang));
    expect([...texts.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, text] of texts) expect(text.trim(), `${lang} ${key}`).not.toBe('');
  });

  it.each(languages)('%s keeps the interpolation variables', (lang) => {
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of flatten(locale(lang))) {
      expect(vars(text), `${lang} ${key}`).toEqual(vars(reference.get(key) ?? ''));
    }
  });

  it.each(languages.filter((l) => l !== 'en'))(
    '%s is translated, not copied from English',
    (lang) => {
      const copied = [...flatten(locale(lang))]
        .filter(([key, text]) => english.get(key) === text && !sameAsEnglishAllowed.test(key))
        .map(([key]) => key);
      expect(copied).toEqual([]);
    },
  );

  it('translates every error code of the contract', () => {
    for (const code of errorCodes) expect(reference.has(`errors.${code}`), code).toBe(true);
  });

  it('defines every key the source code asks for', () => {
    const used = new Set<string>();
    for (const text of Object.values(sources)) {
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) used.add(m[1] ?? '');
    }
    expect(used.size).toBeGreaterThan(10);
    const missing = [...used].filter((key) => !reference.has(key));
    expect(missing).toEqual([]);
  });
});
