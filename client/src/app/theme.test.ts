import { describe, expect, it } from 'vitest';
import {
  isThemePreference,
  parseThemePreference,
  readThemePreference,
  resolveTheme,
  themeStorageKey,
  writeThemePreference,
} from './theme';

// Vitest hands CSS imports to tests as empty strings, and the client's types know no Node
// modules: tokens.css is read through Node's fs, reached by hand (tests run from the repo root).
const node = (
  globalThis as unknown as {
    process: {
      getBuiltinModule(id: 'node:fs'): { readFileSync(path: string, encoding: 'utf8'): string };
    };
  }
).process;
const css = node.getBuiltinModule('node:fs').readFileSync('client/src/app/tokens.css', 'utf8');

/** A Map-backed stand-in for localStorage (unit tests run without a DOM). */
function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}
const blocked = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

describe('theme preference', () => {
  it('knows the three choices and nothing else', () => {
    expect(['system', 'light', 'dark'].every(isThemePreference)).toBe(true);
    for (const other of ['', 'Dark', 'auto', null, undefined, 1]) {
      expect(isThemePreference(other)).toBe(false);
    }
  });

  it('reads anything unknown, absent or unreadable as "system"', () => {
    expect(parseThemePreference('dark')).toBe('dark');
    expect(parseThemePreference('light')).toBe('light');
    expect(parseThemePreference('"dark"')).toBe('system');
    expect(parseThemePreference(null)).toBe('system');
    expect(readThemePreference(memoryStorage({ theme: 'dark' }))).toBe('dark');
    expect(readThemePreference(memoryStorage({ theme: 'purple' }))).toBe('system');
    expect(readThemePreference(memoryStorage())).toBe('system');
    expect(readThemePreference(undefined)).toBe('system');
    expect(readThemePreference(blocked)).toBe('system');
  });

  it('stores light and dark under `theme`, and "system" as no key', () => {
    const storage = memoryStorage();
    writeThemePreference(storage, 'dark');
    expect(storage.map.get(themeStorageKey)).toBe('dark');
    expect(readThemePreference(storage)).toBe('dark');
    writeThemePreference(storage, 'light');
    expect(storage.map.get('theme')).toBe('light');
    writeThemePreference(storage, 'system');
    expect(storage.map.has('theme')).toBe(false);
    expect(() => writeThemePreference(blocked, 'dark')).not.toThrow();
    expect(() => writeThemePreference(undefined, 'dark')).not.toThrow();
  });

  it('resolves "system" from the system setting and keeps an explicit choice', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });
});

/** The custom properties of the first CSS block whose selector is exactly `selector`. */
function tokens(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no ${selector} block in tokens.css`);
  const body = css.slice(start, css.indexOf('}', start));
  const entries = [...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m): [string, string] => [
    m[1]!,
    m[2]!.trim(),
  ]);
  return Object.fromEntries(entries);
}

/** A theme's tokens with var(--x) references resolved within the theme (over the light base). */
function resolved(theme: Record<string, string>, base: Record<string, string> = {}) {
  const all = { ...base, ...theme };
  const value = (name: string, depth = 0): string => {
    const v = all[name] ?? '';
    const ref = /^var\((--[\w-]+)\)$/.exec(v);
    return ref && depth < 5 ? value(ref[1]!, depth + 1) : v;
  };
  return Object.fromEntries(Object.keys(all).map((name) => [name, value(name)]));
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const v = parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('colour tokens (tokens.css)', () => {
  const lightOwn = tokens(':root');
  const darkOwn = tokens(":root[data-theme='dark']");
  const redUp = tokens(":root[data-market='red-up']");
  const colourTokens = Object.keys(lightOwn).filter((name) => lightOwn[name]!.startsWith('#'));
  const light = resolved(lightOwn);
  const dark = resolved(darkOwn, lightOwn);

  it('gives every light colour a dark value', () => {
    expect(colourTokens.length).toBeGreaterThan(10);
    expect(Object.keys(darkOwn).sort()).toEqual([...colourTokens].sort());
  });

  it('swaps up and down under red-up, and only those', () => {
    expect(redUp).toEqual({
      '--up': 'var(--red)',
      '--up-bg': 'var(--red-bg)',
      '--up-fill': 'var(--red-fill)',
      '--down': 'var(--green)',
      '--down-bg': 'var(--green-bg)',
      '--down-fill': 'var(--green-fill)',
    });
    expect(light['--up']).toBe(light['--green']);
    expect(light['--error']).toBe(light['--red']);
    expect(dark['--up']).toBe(dark['--green']);
  });

  /** Text colour on the backgrounds it is drawn on. */
  const textPairs: [string, string][] = [
    ['--text', '--page-bg'],
    ['--text', '--bg'],
    ['--text', '--surface'],
    ['--text-muted', '--bg'],
    ['--text-muted', '--surface'],
    ['--flat', '--surface'],
    ['--accent', '--bg'],
    ['--accent', '--surface'],
    ['--accent-contrast', '--accent'],
    ['--on-fill', '--accent-fill'],
    ['--on-fill', '--up-fill'],
    ['--on-fill', '--down-fill'],
    ['--toast-text', '--toast-bg'],
    ['--up', '--bg'],
    ['--up', '--surface'],
    ['--up', '--up-bg'],
    ['--down', '--bg'],
    ['--down', '--surface'],
    ['--down', '--down-bg'],
    ['--warning-text', '--warning-bg'],
    ['--danger-text', '--danger-bg'],
  ];
  it.each([
    ['light', light],
    ['dark', dark],
  ])('%s: text pairs reach 4.5:1', (_name, theme) => {
    for (const [fg, bg] of textPairs) {
      expect(contrast(theme[fg]!, theme[bg]!), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});
