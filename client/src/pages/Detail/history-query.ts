import type { Product } from '@shared/product';
import { getCandles, getTicks, type TapeTick } from '@client/api/market';
import { queryClient } from '@client/state/query-client';
import { serverNow } from '@client/streams';
import { loadTickCandles } from './chart-ticks';
import { isTickInterval, viewForDuration, viewMs, type ChartView } from './chart-view';
import { candlesWanted, LINE_WINDOW_MS, loadCandleHistory } from './history';
import { loadChoice } from './quick-ticket';
import { pickDuration } from './ticket';

/**
 * The chart's history (the line's recent ticks, a candle view's candles) under one query key, so
 * the quick switcher can load a product's history before it is opened and the chart draws it at
 * once (DECISIONS: the quick switcher). A history in the cache is taken once, while it is at most
 * HISTORY_FRESH_MS old, and then dropped: a reload (ticks lost on a reconnection) always reads
 * afresh. Without one, the chart reads as before, with its own abort signal.
 */

/** How long a loaded history stays good enough to draw: the ticks since are not in it. */
export const HISTORY_FRESH_MS = 30_000;

export const chartHistoryKey = (productId: string, view: ChartView, endsAt: number | null) =>
  ['chart-history', productId, view, endsAt ?? 'now'] as const;

export function loadLineHistory(
  productId: string,
  endsAt: number | null,
  signal?: AbortSignal,
): Promise<TapeTick[]> {
  const now = endsAt ?? serverNow();
  return getTicks({ product: productId, from: now - LINE_WINDOW_MS, to: now, limit: 1000 }, signal);
}

export function loadCandleView(
  productId: string,
  precision: number,
  view: Exclude<ChartView, 'line'>,
  endsAt: number | null,
  signal?: AbortSignal,
) {
  if (isTickInterval(view))
    return loadTickCandles(
      (window) => getTicks({ product: productId, ...window }, signal),
      viewMs(view) ?? 5_000,
      precision,
      endsAt ?? serverNow(),
    );
  return loadCandleHistory(
    (page) => getCandles({ product: productId, interval: view, ...page }, signal),
    candlesWanted(view),
    endsAt ?? undefined,
  );
}

/** The history, from the query cache when there is a fresh one (or one on its way), once. */
export async function takeHistory<T>(
  key: readonly unknown[],
  load: (signal?: AbortSignal) => Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  const state = queryClient.getQueryState(key);
  const fresh = state?.data !== undefined && Date.now() - state.dataUpdatedAt < HISTORY_FRESH_MS;
  if (!fresh && state?.fetchStatus !== 'fetching') return load(signal);
  try {
    return await queryClient.fetchQuery({
      queryKey: key,
      queryFn: ({ signal: own }) => load(own),
      staleTime: HISTORY_FRESH_MS,
      retry: false,
    });
  } finally {
    queryClient.removeQueries({ queryKey: key, exact: true });
  }
}

/**
 * The view a product's chart opens with when switched to: the interval of its ticket's duration
 * (the one last used on it on this device, else its first). The chart of the product left shows
 * the view of its own duration until the new ticket reports, which is the same for products
 * sharing their durations; another is one request, as without the switcher.
 */
export function openingView(product: Pick<Product, 'id' | 'durations'>): ChartView {
  const rung = pickDuration(product.durations, loadChoice(product.id)?.duration ?? null);
  return viewForDuration(rung?.seconds ?? null);
}

/** Starts loading a trading product's opening history into the cache (a fresh one is kept). */
export function prefetchHistory(product: Pick<Product, 'id' | 'durations' | 'precision'>): void {
  const view = openingView(product);
  const queryFn = (): Promise<unknown> =>
    view === 'line'
      ? loadLineHistory(product.id, null)
      : loadCandleView(product.id, product.precision, view, null);
  void queryClient.prefetchQuery({
    queryKey: chartHistoryKey(product.id, view, null),
    queryFn,
    staleTime: HISTORY_FRESH_MS,
    retry: false,
  });
}
