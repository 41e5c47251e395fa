import type { ResourceKey } from 'i18next';

/** A parsed locale file: nested objects of strings. */
export type LocaleTree = { [key: string]: string | LocaleTree };

/** `./locales/market/ja.json` → `{ feature: 'market', lang: 'ja' }`; null for any other path. */
export function parseLocalePath(path: string): { feature: string; lang: string } | null {
  const m = /^\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  return m ? { feature: m[1] ?? '', lang: m[2] ?? '' } : null;
}

/** The locale file paths of one language, one per feature folder, sorted for a stable merge. */
export function localePathsFor(lang: string, paths: Iterable<string>): string[] {
  return [...paths].filter((path) => parseLocalePath(path)?.lang === lang).sort();
}

/**
 * Deep-merges the feature files of one language into one i18next resource. Features own
 * disjoint keys (locales.test.ts enforces it), so a collision is a mistake: it throws rather
 * than let one feature's text silently replace another's.
 */
export function mergeLocales(parts: readonly ResourceKey[]): LocaleTree {
  const out: LocaleTree = {};
  const mergeInto = (target: LocaleTree, source: LocaleTree, prefix: string) => {
    for (const [key, value] of Object.entries(source)) {
      const path = prefix ? `${prefix}.${key}` : key;
      const existing = target[key];
      if (typeof value === 'string') {
        if (existing !== undefined) throw new Error(`locale key ${path} is defined twice`);
        target[key] = value;
      } else {
        if (typeof existing === 'string') throw new Error(`locale key ${path} is defined twice`);
        const branch = existing ?? {};
        target[key] = branch;
        mergeInto(branch, value, path);
      }
    }
  };
  for (const part of parts) mergeInto(out, part as LocaleTree, '');
  return out;
}

/** Dotted key → text, for tests and tooling. */
export function flattenLocale(tree: LocaleTree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flattenLocale(value, path)) out.set(k, v);
  }
  return out;
}
