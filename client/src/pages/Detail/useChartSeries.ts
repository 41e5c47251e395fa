import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { IChartApi, ISeriesApi, SeriesType } from 'lightweight-charts';
import { merge, Subject } from 'rxjs';
import type { Order } from '@shared/orders/model';
import { useMarketColors } from '@client/app/market-colors';
import { useTheme } from '@client/app/theme';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { ticks$, ticksGap$ } from '@client/streams';
import type { LabelTexts } from './chart-labels';
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

/** What the position labels say, read at each drawing (a language change needs no new series). */
function useLabelTexts(lang: string, marksRef: { readonly current: PositionMarks | null }) {
  const { t } = useTranslation();
  const textsRef = useRef<LabelTexts>({ money: String, group: String });
  useEffect(() => {
    textsRef.current = {
      money: (minor) => formatMoney(minor, lang),
      group: (count) => t('orders.positions.group', { count }),
    };
    marksRef.current?.layout();
  }, [lang, t, marksRef]);
  return textsRef;
}

/**
 * A theme or market-colour change (settings or the system) re-reads the CSS variables into the
 * canvas, its series and the position marks.
 */
function useRepaint(
  chartRef: RefObject<IChartApi | null>,
  containerRef: RefObject<HTMLDivElement | null>,
  recolorRef: RefObject<((colors: Palette) => void) | null>,
  marksRef: RefObject<PositionMarks | null>,
) {
  const { theme } = useTheme();
  const { colors: marketColors } = useMarketColors();
  useEffect(() => {
    const el = containerRef.current;
    if (!chartRef.current || !el) return;
    const colors = palette(el);
    chartRef.current.applyOptions(chartColors(colors, el));
    recolorRef.current?.(colors);
    marksRef.current?.recolor(positionColors(colors));
  }, [chartRef, containerRef, recolorRef, marksRef, theme, marketColors]);
}

/**
 * More to draw over each new price series (the user's drawings); returns what takes it away
 * (told whether the chart is still there: when it went first, its series went with it).
 */
type SeriesExtra = (
  chart: IChartApi,
  series: ISeriesApi<SeriesType>,
  barMs: number | null,
) => (alive: boolean) => void;

/** The orders' changes reach the marks drawn (and the next series, through `ordersRef`). */
function useOrderMarks(
  containerRef: RefObject<HTMLDivElement | null>,
  marksRef: RefObject<PositionMarks | null>,
  ordersRef: RefObject<{ open: readonly Order[]; closed: readonly Order[] }>,
  open: readonly Order[],
  closed: readonly Order[],
) {
  useEffect(() => {
    ordersRef.current = { open, closed };
    const el = containerRef.current;
    const marks = marksRef.current;
    if (el && marks) el.dataset.positionLines = String(marks.set(open, closed));
  }, [containerRef, marksRef, ordersRef, open, closed]);
}

/** A ref that holds the latest `value`, read when a series is made (set before the series effect). */
function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  }, [value]);
  return ref;
}

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
  endsAt,
  onSeries,
}: {
  containerRef: RefObject<HTMLDivElement | null>;
  layerRef: RefObject<HTMLDivElement | null>;
  productId: string;
  precision: number;
  view: ChartView;
  indicators: IndicatorChoice;
  open: readonly Order[];
  closed: readonly Order[];
  endsAt: number | null;
  onSeries?: SeriesExtra;
}): { status: ChartStatus; retry: () => void } {
  const { lang } = useFormat();
  /** Repaints the current series in new colours; set by the series effect. */
  const recolorRef = useRef<((colors: Palette) => void) | null>(null);
  const [status, setStatus] = useState<ChartStatus>({ kind: 'loading' });
  const retry$ = useMemo(() => new Subject<void>(), []);
  const overlaysRef = useRef<CandleOverlays | null>(null);
  const marksRef = useRef<PositionMarks | null>(null);
  const textsRef = useLabelTexts(lang, marksRef);
  // Read when a series is made; later changes reach it through the positions effect below.
  const ordersRef = useRef({ open, closed });
  const onSeriesRef = useLatest(onSeries);
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

  useRepaint(chartRef, containerRef, recolorRef, marksRef);

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
      const undrawMore = onSeriesRef.current?.(chart, series, barMs) ?? (() => undefined);
      const marks = positionMarks(
        chart,
        series,
        layer,
        positionColors(colors),
        barMs,
        precision,
        () => textsRef.current,
      );
      marksRef.current = marks;
      el.dataset.positionLines = String(
        marks.set(ordersRef.current.open, ordersRef.current.closed),
      );
      return () => {
        marksRef.current = null;
        marks.remove(chartRef.current === chart);
        undrawMore(chartRef.current === chart);
      };
    };
    const setup: SeriesSetup = {
      chart,
      el,
      colors,
      productId,
      precision,
      endsAt,
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
  }, [
    chartRef,
    containerRef,
    layerRef,
    productId,
    precision,
    view,
    endsAt,
    retry$,
    textsRef,
    onSeriesRef,
  ]);

  useOrderMarks(containerRef, marksRef, ordersRef, open, closed);

  return { status, retry: () => retry$.next() };
}
