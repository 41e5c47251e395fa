import { useMemo } from 'react';
import { useChartIndicators as useStoredIndicators } from '@client/state/chart-indicators';

/**
 * The chart indicators a trader turned on and their settings, kept on this device (none on at
 * first, the usual settings). Kept in the first version's place (state/chart-indicators.ts, whose
 * check asks for `ma` and `boll` and keeps the rest of the object as it was written), so a
 * trader's earlier toggles hold; what is missing or out of bounds reads as the default.
 */

/** The indicators in the order of their toggles: over the price first, then in their panes. */
export const indicatorKeys = ['ma', 'ema', 'boll', 'rsi', 'macd', 'stoch'] as const;
export type IndicatorKey = (typeof indicatorKeys)[number];
/** The indicators drawn in a pane of their own under the price, in this order. */
export const paneKeys = ['rsi', 'macd', 'stoch'] as const;

export interface IndicatorSettings {
  ma: { period: number };
  ema: { period: number };
  boll: { period: number; multiplier: number };
  rsi: { period: number };
  macd: { fast: number; slow: number; signal: number };
  stoch: { k: number; d: number };
}

export type IndicatorChoice = Record<IndicatorKey, boolean> & { settings: IndicatorSettings };

export const defaultSettings: IndicatorSettings = {
  ma: { period: 20 },
  ema: { period: 20 },
  boll: { period: 20, multiplier: 2 },
  rsi: { period: 14 },
  macd: { fast: 12, slow: 26, signal: 9 },
  stoch: { k: 14, d: 3 },
};

export interface SettingField {
  min: number;
  max: number;
  step: number;
}

/** What each setting may be: a window of at least 2 bars, at most what a history holds. */
export const settingFields: {
  [K in IndicatorKey]: Record<keyof IndicatorSettings[K], SettingField>;
} = {
  ma: { period: { min: 2, max: 200, step: 1 } },
  ema: { period: { min: 2, max: 200, step: 1 } },
  boll: { period: { min: 2, max: 100, step: 1 }, multiplier: { min: 0.5, max: 4, step: 0.5 } },
  rsi: { period: { min: 2, max: 100, step: 1 } },
  macd: {
    fast: { min: 2, max: 50, step: 1 },
    slow: { min: 3, max: 100, step: 1 },
    signal: { min: 2, max: 50, step: 1 },
  },
  stoch: { k: { min: 2, max: 100, step: 1 }, d: { min: 1, max: 20, step: 1 } },
};

/** A setting inside its bounds, on its step; anything not a number is the default. */
export function clampSetting(value: unknown, field: SettingField, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  const stepped = Math.round(value / field.step) * field.step;
  return Math.min(field.max, Math.max(field.min, Number(stepped.toFixed(6))));
}

function settingsOf<K extends IndicatorKey>(key: K, raw: unknown): IndicatorSettings[K] {
  const source = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const fields = settingFields[key] as Record<string, SettingField>;
  const defaults = defaultSettings[key] as Record<string, number>;
  const out: Record<string, number> = {};
  for (const name of Object.keys(fields))
    out[name] = clampSetting(source[name], fields[name]!, defaults[name]!);
  return out as IndicatorSettings[K];
}

/** Any stored value as a whole choice: missing toggles off, settings bounded, MACD fast < slow. */
export function normaliseChoice(raw: unknown): IndicatorChoice {
  const source = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const stored = (typeof source.settings === 'object' && source.settings) || {};
  const settings = {} as Record<IndicatorKey, unknown>;
  const choice = {} as Record<IndicatorKey, boolean>;
  for (const key of indicatorKeys) {
    choice[key] = source[key] === true;
    settings[key] = settingsOf(key, (stored as Record<string, unknown>)[key]);
  }
  const macd = settings.macd as IndicatorSettings['macd'];
  if (macd.slow <= macd.fast) macd.slow = Math.min(settingFields.macd.slow.max, macd.fast + 1);
  if (macd.slow <= macd.fast) macd.fast = macd.slow - 1;
  return { ...choice, settings: settings as unknown as IndicatorSettings };
}

export function useChartIndicators(): [IndicatorChoice, (next: IndicatorChoice) => void] {
  const [stored, setStored] = useStoredIndicators();
  const choice = useMemo(() => normaliseChoice(stored), [stored]);
  return [choice, setStored];
}

/** The settings of an indicator as figures, for its name: "(20, 2)". */
export const settingsText = (choice: IndicatorChoice, key: IndicatorKey) =>
  `(${Object.values(choice.settings[key]).join(', ')})`;
