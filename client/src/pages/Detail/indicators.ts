import { liveBollinger, liveSma } from './indicators-live';

/**
 * Chart indicators over candle closes, oldest first, as whole series (the chart itself keeps
 * them incrementally: indicators-live.ts, whose state machines these run). A point is null until
 * the window is full (the first `period − 1` candles have none), as the chart draws nothing there.
 *
 * - Simple moving average: the mean of the last `period` closes.
 * - Bollinger bands (John Bollinger's definition): the middle band is the SMA, the upper and lower
 *   bands are `multiplier` population standard deviations (divided by `period`, not `period − 1`)
 *   above and below it. Defaults 20 and 2, the usual setting in trading apps.
 */

export const BOLLINGER = { period: 20, multiplier: 2 } as const;

const asBars = (values: readonly number[]) =>
  values.map((close, time) => ({ time, close, high: close, low: close }));

export function sma(values: readonly number[], period: number): (number | null)[] {
  return liveSma(period).reset(asBars(values));
}

export interface Band {
  middle: number;
  upper: number;
  lower: number;
}

export function bollinger(
  values: readonly number[],
  period: number = BOLLINGER.period,
  multiplier: number = BOLLINGER.multiplier,
): (Band | null)[] {
  return liveBollinger(period, multiplier).reset(asBars(values));
}
