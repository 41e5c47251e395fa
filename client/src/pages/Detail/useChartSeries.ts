import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { ISeriesApi, SeriesType } from 'lightweight-charts';
import { merge, Subject } from 'rxjs';
import type { Order } from '@shared/orders';
import { useMarketColors } from '@client/app/market-colors';
import { useTheme } from '@client/app/theme';
import { useFormat } from '@client/i18n/useFormat';
import { ticks$, ticksGap$ } from '@client/streams';
import type { CandleOverlays, IndicatorChoice } from './chart-overlays';
import { positionMarks, type PositionMarks } from './chart-positions';
import {
  drawCandleSeries,
  drawLineSeries,
  feedHandler,
  type ChartStatus,
  type SeriesSetup,
} from './chart-series';
import { chartColors, indicatorList, palette, positionColors, type Palette } from './chart-style';
import type { ChartView } from './Chart';
import { useChartCanvas } from './useChartCanvas';

/**
 * The chart's series lifecycle: the chart in `containerRef`, one series for `view` (remade when
 * the product, precision or view changes, or on retry), its indicator overlays, the user's
 * orders over it (expiry lines in `layerRef`), and the theme's colours. Bars go from the feed
 * straight into the series; the status (loading, ready, empty, error) is the only React state.
 */
export function useChartSeries({
  containerRef,
  layerRef,
  productId,
  precision,
  view,
  indicators,
  open,
  closed,
}: {
  containerRef: RefObject<HTMLDivElement | null>;
  layerRef: RefObject<HTMLDivElement | null>;
  productId: string;
  precision: number;
  view: ChartView;
  indicators: IndicatorChoice;
  open: readonly Order[];
  closed: readonly Order[];
}): { status: ChartStatus; retry: () => void } {
  const { lang } = useFormat();
  /** Repaints the current series in new colours; set by the series effect. */
  const recolorRef = useRef<((colors: Palette) => void) | null>(null);
  const { theme } = useTheme();
  const { colors: marketColors } = useMarketColors();
  const [status, setStatus] = useState<ChartStatus>({ kind: 'loading' });
  const retry$ = useMemo(() => new Subject<void>(), []);
  const overlaysRef = useRef<CandleOverlays | null>(null);
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
  }, [containerRef, indicators]);

  const chartRef = useChartCanvas(containerRef, lang, precision);

  // A theme or market-colour change (settings or the system) re-reads the CSS variables into
  // the canvas.
  useEffect(() => {
    const el = containerRef.current;
    if (!chartRef.current || !el) return;
    const colors = palette(el);
    chartRef.current.applyOptions(chartColors(colors, el));
    recolorRef.current?.(colors);
    marksRef.current?.recolor(positionColors(colors));
  }, [chartRef, containerRef, theme, marketColors]);

  useEffect(() => {
    const chart = chartRef.current;
    const el = containerRef.current;
    if (!chart || !el) return;
    const colors = palette(el);
    const reload$ = merge(ticksGap$(productId), retry$);
    const live$ = ticks$(productId);
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
    const setup: SeriesSetup = {
      chart,
      el,
      colors,
      productId,
      precision,
      reload$,
      live$,
      handle: feedHandler(el, view, marksRef, setStatus),
      drawPositions,
      // On unmount the chart effect's cleanup runs first and takes its series with it.
      dropSeries: (series) => {
        if (chartRef.current === chart) chart.removeSeries(series);
      },
      setRecolor: (recolor) => {
        recolorRef.current = recolor;
      },
    };
    if (view === 'line') return drawLineSeries(setup);
    return drawCandleSeries(setup, view, indicatorsRef.current, (overlays) => {
      overlaysRef.current = overlays;
    });
  }, [chartRef, containerRef, layerRef, productId, precision, view, retry$]);

  useEffect(() => {
    ordersRef.current = { open, closed };
    const el = containerRef.current;
    const marks = marksRef.current;
    if (el && marks) el.dataset.positionLines = String(marks.set(open, closed));
  }, [containerRef, open, closed]);

  return { status, retry: () => retry$.next() };
}
