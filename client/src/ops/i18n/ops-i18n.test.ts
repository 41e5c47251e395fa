import { describe, expect, it } from 'vitest';
import en from './en.json';
import zhCN from './zh-CN.json';

/** The console's own texts (English and Simplified Chinese; DECISIONS.md, The operator console). */
const sources = import.meta.glob<string>(['../**/*.tsx', '../**/*.ts', '!../**/*.test.ts'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

function flatten(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v as object, key)) out.set(kk, vv);
  }
  return out;
}
const plural = /_(zero|one|two|few|many|other)$/;
/** Keys without their plural suffix: Chinese has one plural form, English two. */
const keysOf = (texts: Map<string, string>) =>
  new Set([...texts.keys()].map((k) => k.replace(plural, '')));
const english = flatten(en);
const chinese = flatten(zhCN);
/** Texts that are the same in both on purpose: names, codes, formats. */
const sameInBoth = new Set([
  'channels.usdt-trc20',
  'channels.usdt-erc20',
  'users.id',
  'audit.actionHint',
  'audit.targetHint',
]);

describe('operator console texts', () => {
  it('have the same keys in English and Chinese', () => {
    expect([...keysOf(chinese)].sort()).toEqual([...keysOf(english)].sort());
  });

  it('are translated, not English copies', () => {
    const copies = [...chinese]
      .filter(([k, v]) => english.get(k) === v && !sameInBoth.has(k))
      .map(([k]) => k);
    expect(copies).toEqual([]);
  });

  it('define every key the console asks for by name', () => {
    const used = new Set<string>();
    for (const text of Object.values(sources))
      for (const m of text.matchAll(/\bt\(\s*['"]([a-zA-Z0-9_.-]+)['"]/g)) used.add(m[1] ?? '');
    expect(used.size).toBeGreaterThan(50);
    const known = keysOf(english);
    expect([...used].filter((k) => !known.has(k) && !english.has(k))).toEqual([]);
  });
});
