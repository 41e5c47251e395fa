import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CandlestickSeries,
  createChart,
  LineSeries,
  type IChartApi,
  type ISeriesApi,
  type SeriesType,
} from 'lightweight-charts';
import { merge, Subject } from 'rxjs';
import type { Order } from '@shared/orders';
import { intervalMs, type Interval } from '@shared/product';
import { getCandles, getTicks } from '@client/api/market';
import { useMarketColors } from '@client/app/market-colors';
import { useTheme } from '@client/app/theme';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import { useFormat } from '@client/i18n/useFormat';
import { serverNow, ticks$, ticksGap$ } from '@client/streams';
import { candleFeed, lineFeed, updatesPerFrame, type FeedEvent } from './chart-feed';
import { candleOverlays, type CandleOverlays, type IndicatorChoice } from './chart-overlays';
import { positionMarks, type PositionMarks } from './chart-positions';
import { candlesWanted, LINE_WINDOW_MS, loadCandleHistory } from './history';
import {
  palette,
  chartColors,
  lineColors,
  overlayColors,
  priceMargins,
  positionColors,
  candleColors,
  lastPrice,
  indicatorList,
  localization,
  type Palette,
} from './chart-style';

export type ChartView = Interval | 'line';

/** The blank margin each side of the line view, as a share of its points (twice on the right). */
const EDGE = 0.05;
/** Candles in view at first, readable on a phone; older ones are a swipe away. */
const VISIBLE_CANDLES = 60;
type Status =
  { kind: 'loading' } | { kind: 'ready' } | { kind: 'empty' } | { kind: 'error'; error: unknown };

/** Chart colours come from the CSS custom properties, so a theme change reaches the canvas. */
/**
 * The price chart. Bars go from the feed straight into the series (setData / update); React
 * state changes only for loading, empty and error, never per tick.
 */
const none: readonly Order[] = [];

export function Chart({
  productId,
  precision,
  view,
  indicators,
  open = none,
  closed = none,
  children,
}: {
  productId: string;
  precision: number;
  view: ChartView;
  /** The moving average and Bollinger bands to draw over candles (not over the line). */
  indicators: IndicatorChoice;
  /** The user's open positions on this product (entry line, entry arrow, expiry line). */
  open?: readonly Order[];
  /** Recent settled orders on it (small entry and exit arrows). */
  closed?: readonly Order[];
  /** Drawn over the chart (the position chips). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  /** Repaints the current series in new colours; set by the series effect. */
  const recolorRef = useRef<((colors: Palette) => void) | null>(null);
  const { theme } = useTheme();
  const { colors: marketColors } = useMarketColors();
  const [status, setStatus] = useState<Status>({ kind: 'loading' });
  const retry$ = useMemo(() => new Subject<void>(), []);
  const overlaysRef = useRef<CandleOverlays | null>(null);
  const layerRef = useRef<HTMLDivElement>(null);
  const marksRef = useRef<PositionMarks | null>(null);
  // Read when a series is made; later changes reach it through the positions effect below.
  const ordersRef = useRef({ open, closed });
  // Read when the candle series are made (this effect runs before theirs); later changes reach
  // the series already drawn through the same effect.
  const indicatorsRef = useRef(indicators);
  useEffect(() => {
    indicatorsRef.current = indicators;
    overlaysRef.current?.show(indicators);
    const el = containerRef.current;
    if (el) el.dataset.indicators = indicatorList(indicators);
  }, [indicators]);

  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const base = chartColors(palette(el), el);
    const chart = createChart(el, {
      autoSize: true,
      ...base,
      // Corner labels only when whole, so the last-price tag never sits on a cut label.
      rightPriceScale: { ...base.rightPriceScale, entireTextOnly: true, alignLabels: true },
      timeScale: { ...base.timeScale, timeVisible: true, secondsVisible: false },
    });
    chartRef.current = chart;
    return () => {
      chartRef.current = null;
      chart.remove();
    };
  }, []);

  useEffect(() => {
    chartRef.current?.applyOptions(localization(lang, precision));
  }, [lang, precision]);

  // A theme or market-colour change (settings or the system) re-reads the CSS variables into
  // the canvas.
  useEffect(() => {
    const el = containerRef.current;
    if (!chartRef.current || !el) return;
    const colors = palette(el);
    chartRef.current.applyOptions(chartColors(colors, el));
    recolorRef.current?.(colors);
    marksRef.current?.recolor(positionColors(colors));
  }, [theme, marketColors]);

  useEffect(() => {
    const chart = chartRef.current;
    const el = containerRef.current;
    if (!chart || !el) return;
    const colors = palette(el);
    const priceFormat = { type: 'price' as const, precision, minMove: 10 ** -precision };
    const reload$ = merge(ticksGap$(productId), retry$);
    const live$ = ticks$(productId);
    // On unmount the chart effect's cleanup runs first and takes its series with it.
    const dropSeries = (series: ISeriesApi<SeriesType>) => {
      if (chartRef.current === chart) chart.removeSeries(series);
    };
    /** The user's orders over a new series; the cleanup takes them away with it. */
    const drawPositions = (series: ISeriesApi<SeriesType>, barMs: number | null) => {
      const layer = layerRef.current;
      if (!layer) return () => undefined;
      const marks = positionMarks(chart, series, layer, positionColors(colors), barMs);
      marksRef.current = marks;
      el.dataset.positionLines = String(
        marks.set(ordersRef.current.open, ordersRef.current.closed),
      );
      return () => {
        marksRef.current = null;
        marks.remove(chartRef.current === chart);
      };
    };

    let hasBars = false;
    // What the chart shows, as attributes for tests and tools; written per tick, no React render.
    let barCount = 0;
    let lastTime: unknown = null;
    const mark = (updated: boolean) => {
      el.dataset.interval = view;
      el.dataset.bars = String(barCount);
      if (updated) el.dataset.updated = String(Date.now());
    };
    function handle<B extends { time: unknown }>(
      event: FeedEvent<B>,
      draw: { set(bars: B[]): void; update(bar: B): void },
    ) {
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

    if (view === 'line') {
      chart.priceScale('right').applyOptions(priceMargins(false));
      const series = chart.addSeries(LineSeries, {
        ...lineColors(colors),
        lineWidth: 2,
        priceFormat,
        ...lastPrice,
      });
      recolorRef.current = (c) => series.applyOptions(lineColors(c));
      const undraw = drawPositions(series, null);
      const sub = lineFeed({
        ticks$: live$,
        reload$,
        loadTicks: (signal) => {
          const now = serverNow();
          return getTicks(
            { product: productId, from: now - LINE_WINDOW_MS, to: now, limit: 1000 },
            signal,
          );
        },
      })
        .pipe(updatesPerFrame())
        .subscribe((event) =>
          handle(event, {
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
        recolorRef.current = null;
        sub.unsubscribe();
        undraw();
        dropSeries(series);
      };
    }

    const interval = view;
    chart.priceScale('right').applyOptions(priceMargins(true));
    const series = chart.addSeries(CandlestickSeries, {
      ...candleColors(colors),
      borderVisible: false,
      priceFormat,
      ...lastPrice,
    });
    const overlays = candleOverlays(chart, overlayColors(colors), indicatorsRef.current);
    overlaysRef.current = overlays;
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
    const undraw = drawPositions(series, intervalMs[interval]);
    recolorRef.current = (c) => {
      series.applyOptions(candleColors(c));
      overlays.recolor(overlayColors(c));
      markCandles();
    };
    const sub = candleFeed({
      precision,
      intervalMs: intervalMs[interval],
      ticks$: live$,
      reload$,
      loadCandles: (signal) =>
        loadCandleHistory(
          (page) => getCandles({ product: productId, interval, ...page }, signal),
          candlesWanted(interval),
        ),
    })
      .pipe(updatesPerFrame())
      .subscribe((event) =>
        handle(event, {
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
      recolorRef.current = null;
      overlaysRef.current = null;
      sub.unsubscribe();
      undraw();
      overlays.remove(dropSeries);
      dropSeries(series);
    };
  }, [productId, precision, view, retry$]);

  useEffect(() => {
    ordersRef.current = { open, closed };
    const el = containerRef.current;
    const marks = marksRef.current;
    if (el && marks) el.dataset.positionLines = String(marks.set(open, closed));
  }, [open, closed]);

  // Where the chart starts on the page: with the dock's height it bounds the chart's height.
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const measure = () =>
      box.style.setProperty('--chart-top', `${box.getBoundingClientRect().top + window.scrollY}px`);
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(document.body);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, []);

  return (
    <div className="chart-box" ref={boxRef}>
      <div
        ref={containerRef}
        className="chart"
        data-testid="chart"
        // A figure, not an image: the chart library puts its attribution link inside.
        role="figure"
        aria-label={t('market.chartLabel')}
      />
      <div
        ref={layerRef}
        className="chart-box__positions"
        data-testid="position-layer"
        aria-hidden="true"
      />
      {children}
      {status.kind !== 'ready' && (
        <div className="chart-box__overlay">
          {status.kind === 'loading' && <LoadingState />}
          {status.kind === 'empty' && <EmptyState />}
          {status.kind === 'error' && (
            <ErrorState error={status.error} onRetry={() => retry$.next()} />
          )}
        </div>
      )}
    </div>
  );
}
