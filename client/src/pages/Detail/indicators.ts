/**
 * Chart indicators over candle closes, oldest first. A point is null until the window is full
 * (the first `period − 1` candles have none), as the chart draws nothing there.
 *
 * - Simple moving average: the mean of the last `period` closes.
 * - Bollinger bands (John Bollinger's definition): the middle band is the SMA, the upper and lower
 *   bands are `multiplier` population standard deviations (divided by `period`, not `period − 1`)
 *   above and below it. Defaults 20 and 2, the usual setting in trading apps.
 */

export const MA_PERIOD = 20;
export const BOLLINGER = { period: 20, multiplier: 2 } as const;

export function sma(values: readonly number[], period: number): (number | null)[] {
  const out: (number | null)[] = [];
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i]!;
    if (i >= period) sum -= values[i - period]!;
    out.push(i >= period - 1 ? sum / period : null);
  }
  return out;
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
  const middle = sma(values, period);
  return middle.map((mean, i) => {
    if (mean === null) return null;
    // Two-pass over the window: exact enough for prices, and never negative like Σx² − n·mean².
    let squares = 0;
    for (let j = i - period + 1; j <= i; j++) squares += (values[j]! - mean) ** 2;
    const spread = multiplier * Math.sqrt(squares / period);
    return { middle: mean, upper: mean + spread, lower: mean - spread };
  });
}
