import type { Candle, Interval } from '@shared/product';

/** The most the REST API returns per call. */
export const CANDLE_PAGE_LIMIT = 1000;

/** Candles to show per interval: 1m covers the last 24 hours; the others one full page. */
export function candlesWanted(interval: Interval): number {
  return interval === '1m' ? 1440 : CANDLE_PAGE_LIMIT;
}

export type CandlePageFetch = (page: { limit: number; before?: number }) => Promise<Candle[]>;

/**
 * Loads the newest `wanted` candles, paging back with `before` when one page is not enough.
 * Stops early when the server has no older ones. Oldest first, no duplicates. `endsAt` ends the
 * history there instead of now: a closed market's last prices are before its close, and the
 * server reads a window of candles back from `before` (issue 37).
 */
export async function loadCandleHistory(
  fetchPage: CandlePageFetch,
  wanted: number,
  endsAt?: number,
): Promise<Candle[]> {
  let candles: Candle[] = [];
  let before: number | undefined = endsAt === undefined ? undefined : endsAt + 1;
  while (candles.length < wanted) {
    const limit = Math.min(CANDLE_PAGE_LIMIT, wanted - candles.length);
    const page = await fetchPage({ limit, before });
    // Defensive: never trust a page to respect `before`; an overlap would break the chart.
    const older = before === undefined ? page : page.filter((c) => c.t < (before as number));
    candles = [...older, ...candles];
    const oldest = older[0];
    if (page.length < limit || !oldest) break;
    before = oldest.t;
  }
  return candles;
}

/** How far back the line ("time-sharing") view reaches: a few minutes of ticks. */
export const LINE_WINDOW_MS = 5 * 60_000;
