import {
  HistogramSeries,
  LineSeries,
  LineStyle,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { CandleBar } from './chart-feed';
import type { IndicatorKey, IndicatorSettings } from './indicator-choice';
import {
  liveBollinger,
  liveEma,
  liveMacd,
  liveRsi,
  liveSma,
  liveStochastic,
  type LiveIndicator,
} from './indicators-live';

/**
 * Each indicator on the chart: its incremental state (indicators-live.ts) and its series, over
 * the price (pane 0) or in a pane of its own under it. `set` takes the whole history (a reset);
 * `update` the newest bar, changed or new: one step of the state machine and one point per line.
 */

export interface IndicatorColors {
  up: string;
  down: string;
  /** The first line (MA, RSI, MACD, %K). */
  main: string;
  /** The second line (EMA, signal, %D). */
  second: string;
  /** The bands and the reference levels (RSI 30/70, %K 20/80). */
  band: string;
  /** A translucent colour for histogram bars. */
  fade: (color: string) => string;
}

type AnySeries = ISeriesApi<'Line'> | ISeriesApi<'Histogram'>;

interface Track<O> {
  series: AnySeries;
  value: (point: O) => number | null | undefined;
  /** A colour per bar (the MACD histogram's sign). */
  color?: (point: O) => string;
}

export interface IndicatorDrawing {
  set(bars: readonly CandleBar[]): void;
  update(bar: CandleBar): void;
  remove(drop: (series: AnySeries) => void): void;
}

function drawing<O>(indicator: LiveIndicator<unknown, O>, tracks: Track<O>[]): IndicatorDrawing {
  let lastTime: number | null = null;
  const pointOf = (track: Track<O>, time: UTCTimestamp, value: O | null) => {
    const v = value === null ? null : track.value(value);
    if (v === null || v === undefined) return { time };
    const color = track.color && value !== null ? track.color(value) : undefined;
    return color ? { time, value: v, color } : { time, value: v };
  };
  return {
    set(bars) {
      const values = indicator.reset(bars);
      for (const track of tracks)
        track.series.setData(bars.map((b, i) => pointOf(track, b.time, values[i] ?? null)));
      lastTime = bars.at(-1)?.time ?? null;
    },
    update(bar) {
      if (lastTime !== null && bar.time < lastTime) return;
      const value = indicator.update(bar);
      for (const track of tracks) track.series.update(pointOf(track, bar.time, value));
      lastTime = bar.time;
    },
    remove(drop) {
      for (const track of tracks) drop(track.series);
    },
  };
}

const line = (
  chart: IChartApi,
  color: string,
  width: 1 | 2,
  pane: number,
  style = LineStyle.Solid,
) =>
  chart.addSeries(
    LineSeries,
    {
      color,
      lineWidth: width,
      lineStyle: style,
      lastValueVisible: false,
      priceLineVisible: false,
      crosshairMarkerVisible: false,
    },
    pane,
  );

/** RSI and %K read 0 to 100: whole numbers on their axis, whatever the product's precision. */
const percentFormat = {
  priceFormat: { type: 'custom' as const, formatter: (v: number) => v.toFixed(0), minMove: 0.01 },
};

function levels(series: ISeriesApi<'Line'>, prices: number[], color: string) {
  for (const price of prices)
    series.createPriceLine({
      price,
      color,
      lineWidth: 1,
      lineStyle: LineStyle.Dashed,
      axisLabelVisible: false,
    });
}

/** The drawing of one indicator, `pane` 0 for those over the price. */
export function drawIndicator(
  chart: IChartApi,
  key: IndicatorKey,
  settings: IndicatorSettings,
  colors: IndicatorColors,
  pane: number,
): IndicatorDrawing {
  switch (key) {
    case 'ma':
      return drawing(liveSma(settings.ma.period), [
        { series: line(chart, colors.main, 2, pane), value: (v) => v },
      ]);
    case 'ema':
      return drawing(liveEma(settings.ema.period), [
        { series: line(chart, colors.second, 2, pane), value: (v) => v },
      ]);
    case 'boll': {
      const { period, multiplier } = settings.boll;
      return drawing(liveBollinger(period, multiplier), [
        { series: line(chart, colors.band, 1, pane), value: (v) => v.upper },
        { series: line(chart, colors.band, 1, pane, LineStyle.Dotted), value: (v) => v.middle },
        { series: line(chart, colors.band, 1, pane), value: (v) => v.lower },
      ]);
    }
    case 'rsi': {
      const rsi = line(chart, colors.main, 1, pane);
      rsi.applyOptions(percentFormat);
      levels(rsi, [30, 70], colors.band);
      return drawing(liveRsi(settings.rsi.period), [{ series: rsi, value: (v) => v }]);
    }
    case 'macd': {
      const { fast, slow, signal } = settings.macd;
      const histogram = chart.addSeries(
        HistogramSeries,
        { lastValueVisible: false, priceLineVisible: false },
        pane,
      );
      return drawing(liveMacd(fast, slow, signal), [
        {
          series: histogram,
          value: (v) => v.histogram,
          color: (v) => colors.fade((v.histogram ?? 0) >= 0 ? colors.up : colors.down),
        },
        { series: line(chart, colors.main, 1, pane), value: (v) => v.macd },
        { series: line(chart, colors.second, 1, pane), value: (v) => v.signal },
      ]);
    }
    case 'stoch': {
      const k = line(chart, colors.main, 1, pane);
      k.applyOptions(percentFormat);
      levels(k, [20, 80], colors.band);
      const d = line(chart, colors.second, 1, pane);
      d.applyOptions(percentFormat);
      return drawing(liveStochastic(settings.stoch.k, settings.stoch.d), [
        { series: k, value: (v) => v.k },
        { series: d, value: (v) => v.d },
      ]);
    }
  }
}
