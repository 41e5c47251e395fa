import {
  CandlestickSeries,
  LineSeries,
  type IChartApi,
  type ISeriesApi,
  type SeriesType,
} from 'lightweight-charts';
import type { Observable } from 'rxjs';
import {
  candleFeed,
  lineFeed,
  updatesPerFrame,
  type CandleFeedOptions,
  type FeedEvent,
} from './chart-feed';
import { candleOverlays, type CandleOverlays, type IndicatorChoice } from './chart-overlays';
import type { PositionMarks } from './chart-positions';
import { isTickInterval, viewMs, type ChartView } from './chart-view';
import { chartHistoryKey, loadCandleView, loadLineHistory, takeHistory } from './history-query';
import {
  candleColors,
  lastPrice,
  lineColors,
  overlayColors,
  priceMargins,
  type Palette,
} from './chart-style';

/**
 * The chart's series, one per view: the line of recent ticks or the candles with their overlays,
 * each fed from its history and the live ticks. Plain functions called from the series effect
 * (useChartSeries); each returns the cleanup that takes its series away.
 */

/** The blank margin each side of the line view, as a share of its points (twice on the right). */
const EDGE = 0.05;
/** Candles in view at first, readable on a phone; older ones are a swipe away. */
const VISIBLE_CANDLES = 60;

export type ChartStatus =
  { kind: 'loading' } | { kind: 'ready' } | { kind: 'empty' } | { kind: 'error'; error: unknown };

/** How a feed's bars reach the series: all of them (a reset), or a new or changed last bar. */
interface Draw<B> {
  set(bars: B[]): void;
  update(bar: B): void;
}

type FeedHandler = <B extends { time: unknown }>(event: FeedEvent<B>, draw: Draw<B>) => void;

/**
 * Hands a feed's events to a series (through `draw`) and to the position marks; React state
 * changes only for loading, empty and error, never per tick. What the chart shows is written as
 * attributes on `el` for tests and tools (per tick, no React render).
 */
export function feedHandler(
  el: HTMLElement,
  view: ChartView,
  marksRef: { readonly current: PositionMarks | null },
  setStatus: (status: ChartStatus) => void,
): FeedHandler {
  let hasBars = false;
  let barCount = 0;
  let lastTime: unknown = null;
  const mark = (updated: boolean) => {
    el.dataset.interval = view;
    el.dataset.bars = String(barCount);
    if (updated) el.dataset.updated = String(Date.now());
  };
  function handle<B extends { time: unknown }>(event: FeedEvent<B>, draw: Draw<B>) {
    switch (event.kind) {
      case 'loading':
        setStatus({ kind: 'loading' });
        break;
      case 'error':
        setStatus({ kind: 'error', error: event.error });
        break;
      case 'reset':
        draw.set(event.bars);
        barCount = event.bars.length;
        lastTime = event.bars.at(-1)?.time ?? null;
        mark(false);
        marksRef.current?.refresh(true);
        hasBars = event.bars.length > 0;
        setStatus({ kind: hasBars ? 'ready' : 'empty' });
        break;
      case 'update':
        draw.update(event.bar);
        if (event.bar.time !== lastTime) {
          barCount++;
          marksRef.current?.refresh();
        } else marksRef.current?.layout();
        lastTime = event.bar.time;
        mark(true);
        if (!hasBars) {
          hasBars = true;
          setStatus({ kind: 'ready' });
        }
        break;
    }
  }
  return handle;
}

/** What either series needs from the series effect. */
export interface SeriesSetup {
  chart: IChartApi;
  /** The chart's element, where its attributes for tests and tools go. */
  el: HTMLElement;
  colors: Palette;
  productId: string;
  precision: number;
  /** Where a closed market's history ends (its last tick); null: now. */
  endsAt: number | null;
  reload$: Observable<unknown>;
  live$: CandleFeedOptions['ticks$'];
  handle: FeedHandler;
  /** Draws the user's orders over the series; returns what takes them away. */
  drawPositions: (series: ISeriesApi<SeriesType>, barMs: number | null) => () => void;
  /** Removes a series, unless the chart has gone already (and taken it with it). */
  dropSeries: (series: ISeriesApi<SeriesType>) => void;
  /** Where the series leaves its repaint for a theme change (null once it is gone). */
  setRecolor: (recolor: ((colors: Palette) => void) | null) => void;
}

const priceFormatOf = (precision: number) => ({
  type: 'price' as const,
  precision,
  minMove: 10 ** -precision,
});

/** The line view: the last minutes of ticks, then live ones, all of them in view. */
export function drawLineSeries(s: SeriesSetup): () => void {
  const { chart, productId } = s;
  chart.priceScale('right').applyOptions(priceMargins(false));
  const series = chart.addSeries(LineSeries, {
    ...lineColors(s.colors),
    lineWidth: 2,
    priceFormat: priceFormatOf(s.precision),
    ...lastPrice,
  });
  s.setRecolor((c) => series.applyOptions(lineColors(c)));
  const undraw = s.drawPositions(series, null);
  const sub = lineFeed({
    ticks$: s.live$,
    reload$: s.reload$,
    loadTicks: (signal) =>
      takeHistory(
        chartHistoryKey(productId, 'line', s.endsAt),
        (own) => loadLineHistory(productId, s.endsAt, own),
        signal,
      ),
  })
    .pipe(updatesPerFrame())
    .subscribe((event) =>
      s.handle(event, {
        set: (bars) => {
          series.setData(bars);
          // All of it, with a margin each side: a time label on the first or the last point
          // would be cut in half by the chart's edge.
          const n = bars.length;
          if (n > 1)
            chart.timeScale().setVisibleLogicalRange({
              from: -Math.ceil(n * EDGE),
              to: n - 1 + Math.ceil(n * EDGE * 2),
            });
          else chart.timeScale().fitContent();
        },
        update: (bar) => series.update(bar),
      }),
    );
  return () => {
    s.setRecolor(null);
    sub.unsubscribe();
    undraw();
    s.dropSeries(series);
  };
}

/** A candle view's history: the server's candles, or candles built from the tape (chart-ticks). */
function loadCandles(s: SeriesSetup, view: Exclude<ChartView, 'line'>, signal: AbortSignal) {
  return takeHistory(
    chartHistoryKey(s.productId, view, s.endsAt),
    (own) => loadCandleView(s.productId, s.precision, view, s.endsAt, own),
    signal,
  );
}

/**
 * Candles of `interval` with volume and the chosen indicators (`indicators`, as they are when
 * the series is made; `setOverlays` hands the overlays out for later changes).
 */
export function drawCandleSeries(
  s: SeriesSetup,
  interval: Exclude<ChartView, 'line'>,
  indicators: IndicatorChoice,
  setOverlays: (overlays: CandleOverlays | null) => void,
): () => void {
  const { chart, el } = s;
  chart.priceScale('right').applyOptions(priceMargins(true));
  const series = chart.addSeries(CandlestickSeries, {
    ...candleColors(s.colors),
    borderVisible: false,
    priceFormat: priceFormatOf(s.precision),
    ...lastPrice,
  });
  const overlays = candleOverlays(chart, overlayColors(s.colors), indicators);
  setOverlays(overlays);
  // What the overlays draw, as attributes for tests and tools (like data-bars).
  const markOverlays = () => {
    const n = overlays.counts();
    el.dataset.volumeBars = String(n.volume);
    el.dataset.maPoints = String(n.ma);
    el.dataset.bollPoints = String(n.boll);
  };
  // The candles' colours, as attributes for tests and tools (like data-bars below).
  const markCandles = () => {
    const { upColor, downColor } = series.options();
    el.dataset.upColor = upColor;
    el.dataset.downColor = downColor;
  };
  markCandles();
  const barMs = viewMs(interval) ?? 60_000;
  const undraw = s.drawPositions(series, barMs);
  s.setRecolor((c) => {
    series.applyOptions(candleColors(c));
    overlays.recolor(overlayColors(c));
    markCandles();
  });
  const sub = candleFeed({
    precision: s.precision,
    intervalMs: barMs,
    ticks$: s.live$,
    reload$: s.reload$,
    loadCandles: (signal) => loadCandles(s, interval, signal),
    tickVolume: isTickInterval(interval),
  })
    .pipe(updatesPerFrame())
    .subscribe((event) =>
      s.handle(event, {
        set: (bars) => {
          series.setData(bars);
          overlays.set(bars);
          markOverlays();
          // A new series inherits the previous view's range; start at the newest candles.
          const shown = Math.min(bars.length, VISIBLE_CANDLES);
          chart
            .timeScale()
            .setVisibleLogicalRange({ from: bars.length - shown, to: bars.length + 2 });
        },
        update: (bar) => {
          series.update(bar);
          overlays.update(bar);
          markOverlays();
        },
      }),
    );
  return () => {
    s.setRecolor(null);
    setOverlays(null);
    sub.unsubscribe();
    undraw();
    overlays.remove(s.dropSeries);
    s.dropSeries(series);
  };
}
