import { intervalMs, intervals, type Interval } from '@shared/product';

/**
 * What the chart can show: the line of ticks, candles the client builds from ticks (shorter than
 * the server's shortest, 1 minute: the tape has every tick), and the server's candle intervals.
 */
export const tickIntervalMs = { '5s': 5_000, '15s': 15_000 } as const;
export type TickInterval = keyof typeof tickIntervalMs;
export type ChartView = Interval | TickInterval | 'line';

export const chartViews: readonly ChartView[] = [
  'line',
  ...(Object.keys(tickIntervalMs) as TickInterval[]),
  ...intervals,
];

export const isTickInterval = (view: ChartView): view is TickInterval => view in tickIntervalMs;

/** A candle view's bar length in ms (null for the line). */
export function viewMs(view: ChartView): number | null {
  if (view === 'line') return null;
  return isTickInterval(view) ? tickIntervalMs[view] : intervalMs[view];
}

/** The chart's view before any duration is chosen (a visitor, a product without a ticket). */
export const DEFAULT_VIEW: ChartView = '1m';

/** Bars a trade should span at least, so its path is readable: a 30 s trade on 5 s candles. */
const BARS_PER_TRADE = 4;

/**
 * The candle interval that follows a trade's duration: the longest that still gives the trade
 * BARS_PER_TRADE bars (30 s → 5 s, 1 and 2 min → 15 s, 5 min → 1 min, 1 h → 15 min), never
 * shorter than the shortest built (5 s), nor longer than 1 hour.
 */
export function viewForDuration(seconds: number | null): ChartView {
  if (seconds === null || !Number.isFinite(seconds) || seconds <= 0) return DEFAULT_VIEW;
  const candles = chartViews.filter((v) => v !== 'line' && (viewMs(v) ?? 0) <= 3_600_000);
  let best: ChartView = candles[0] ?? DEFAULT_VIEW;
  for (const view of candles)
    if ((viewMs(view) ?? 0) * BARS_PER_TRADE <= seconds * 1000) best = view;
  return best;
}

/**
 * The view on screen: the trader's own pick while it was made for the duration chosen now; a
 * new duration brings its own interval back (the trader may pick another again).
 */
export function shownView(
  duration: number | null,
  pick: { view: ChartView; duration: number | null } | null,
): ChartView {
  return pick && pick.duration === duration ? pick.view : viewForDuration(duration);
}
