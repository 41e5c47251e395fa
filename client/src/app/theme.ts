import { useSyncExternalStore } from 'react';

/**
 * Light and dark themes. The user picks "system", "light" or "dark" in settings; the choice is
 * kept in local storage under `theme` (absent or unreadable = "system"). The resolved theme goes
 * on the root element as `data-theme="light|dark"`: app.css gives every colour token a dark value
 * under `:root[data-theme='dark']`, so nothing else needs to know. `<meta name="theme-color">`
 * follows the page header's colour (`--surface`).
 */
export type ThemePreference = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const themeStorageKey = 'theme';
export const themePreferences: readonly ThemePreference[] = ['system', 'light', 'dark'];
const darkQuery = '(prefers-color-scheme: dark)';

export function isThemePreference(value: unknown): value is ThemePreference {
  return typeof value === 'string' && (themePreferences as readonly string[]).includes(value);
}

/** What the stored text means: anything but a known choice (old, hand-edited, none) is "system". */
export function parseThemePreference(stored: string | null | undefined): ThemePreference {
  return isThemePreference(stored) ? stored : 'system';
}

/** The theme to show for a choice, given whether the system asks for dark. */
export function resolveTheme(preference: ThemePreference, systemDark: boolean): Theme {
  if (preference === 'system') return systemDark ? 'dark' : 'light';
  return preference;
}

type ThemeStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function readThemePreference(storage: ThemeStorage | undefined): ThemePreference {
  try {
    return parseThemePreference(storage?.getItem(themeStorageKey));
  } catch {
    return 'system'; // storage blocked (private mode, sandboxed frame)
  }
}

/** Stores the choice; "system" removes the key, so a default leaves nothing behind. */
export function writeThemePreference(
  storage: ThemeStorage | undefined,
  preference: ThemePreference,
): void {
  try {
    if (preference === 'system') storage?.removeItem(themeStorageKey);
    else storage?.setItem(themeStorageKey, preference);
  } catch {
    // Storage blocked or full: the choice holds for this visit only.
  }
}

export interface ThemeState {
  preference: ThemePreference;
  theme: Theme;
}

function browserStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

let state: ThemeState = { preference: 'system', theme: 'light' };
let started = false;
const listeners = new Set<() => void>();

function systemDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia(darkQuery).matches;
}

/** The browser's bar takes the page's surface colour (read from the theme's tokens). */
function followSurface(): void {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  const surface = getComputedStyle(document.documentElement).getPropertyValue('--surface').trim();
  if (meta && surface) meta.content = surface;
}

/**
 * `atStart`: the bar's colour is read at the next frame, when the browser computes the styles
 * anyway, not in the start's task, where reading it forced a style pass over the whole
 * stylesheet (issue 21: the start's long task on a phone).
 */
function apply(preference: ThemePreference, atStart = false): void {
  const theme = resolveTheme(preference, systemDark());
  if (typeof document !== 'undefined') {
    document.documentElement.dataset.theme = theme;
    if (atStart && typeof requestAnimationFrame === 'function')
      requestAnimationFrame(followSurface);
    else followSurface();
  }
  if (preference === state.preference && theme === state.theme) return;
  state = { preference, theme };
  listeners.forEach((listener) => listener());
}

/**
 * Applies the stored theme at once (main.tsx calls it before the first render) and follows the
 * system setting and changes made in another tab. Safe to call more than once.
 */
export function startTheme(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  apply(readThemePreference(browserStorage()), true);
  matchMedia(darkQuery).addEventListener('change', () => apply(state.preference));
  window.addEventListener('storage', (event) => {
    if (event.key === themeStorageKey || event.key === null) {
      apply(readThemePreference(browserStorage()));
    }
  });
}

export function setThemePreference(preference: ThemePreference): void {
  writeThemePreference(browserStorage(), preference);
  apply(preference);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => state;

/** The current choice and the theme shown; re-renders when either changes. */
export function useTheme(): ThemeState {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
