import { useSyncExternalStore } from 'react';

/**
 * Which colour means "up": green (most of the world) or red (mainland China, Taiwan, Korea and
 * often Japan, where red is a rise). Readers who take red for up tap the wrong side under a
 * 30-second timer, so the convention is a setting: the stored choice (local storage, key
 * `marketColors`), or else the reader's language's convention (red-up for zh-CN, zh-TW, ko).
 *
 * The resolved convention goes on the root element as `data-market="green-up|red-up"`; app.css
 * swaps `--up`/`--down` (and their backgrounds) under `data-market='red-up'`, so candles, price
 * pills, prices, P&L and both Buy buttons follow. The ▲/▼ marks stay: colour is never the only
 * sign. Non-market states (errors, a held withdrawal, a savings transfer) do not use these
 * tokens.
 */
export type MarketColors = 'green-up' | 'red-up';

export const marketColorsStorageKey = 'marketColors';
export const marketColorChoices: readonly MarketColors[] = ['green-up', 'red-up'];
const redUpLanguages: readonly string[] = ['zh-CN', 'zh-TW', 'ko'];

export function isMarketColors(value: unknown): value is MarketColors {
  return typeof value === 'string' && (marketColorChoices as readonly string[]).includes(value);
}

/** The convention of a language's readers when they have not chosen one. */
export function defaultMarketColors(lang: string): MarketColors {
  return redUpLanguages.includes(lang) ? 'red-up' : 'green-up';
}

/** The stored choice, or null when there is none (or it is not one we know). */
export function parseMarketColors(stored: string | null | undefined): MarketColors | null {
  return isMarketColors(stored) ? stored : null;
}

export function resolveMarketColors(choice: MarketColors | null, lang: string): MarketColors {
  return choice ?? defaultMarketColors(lang);
}

type ColorStorage = Pick<Storage, 'getItem' | 'setItem'>;

export function readMarketColors(storage: ColorStorage | undefined): MarketColors | null {
  try {
    return parseMarketColors(storage?.getItem(marketColorsStorageKey));
  } catch {
    return null; // storage blocked: the language decides
  }
}

export function writeMarketColors(storage: ColorStorage | undefined, choice: MarketColors): void {
  try {
    storage?.setItem(marketColorsStorageKey, choice);
  } catch {
    // Storage blocked or full: the choice holds for this visit only.
  }
}

export interface MarketColorsState {
  /** What the user chose; null = follow the language. */
  choice: MarketColors | null;
  /** What is shown. */
  colors: MarketColors;
}

function browserStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

let language = '';
let state: MarketColorsState = { choice: null, colors: 'green-up' };
let started = false;
const listeners = new Set<() => void>();

function apply(choice: MarketColors | null): void {
  const colors = resolveMarketColors(choice, language);
  if (typeof document !== 'undefined') document.documentElement.dataset.market = colors;
  if (choice === state.choice && colors === state.colors) return;
  state = { choice, colors };
  listeners.forEach((listener) => listener());
}

/**
 * Follows the reader's language (i18n calls it on every language change): without a stored
 * choice, the colours switch with the language.
 */
export function followLanguage(lang: string): void {
  language = lang;
  if (!started && typeof window !== 'undefined') {
    started = true;
    window.addEventListener('storage', (event) => {
      if (event.key === marketColorsStorageKey || event.key === null)
        apply(readMarketColors(browserStorage()));
    });
  }
  apply(readMarketColors(browserStorage()));
}

export function setMarketColors(choice: MarketColors): void {
  writeMarketColors(browserStorage(), choice);
  apply(choice);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => state;

/** The choice and the convention shown; re-renders when either changes. */
export function useMarketColors(): MarketColorsState {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
