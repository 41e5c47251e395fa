import {
  HistogramSeries,
  LineSeries,
  type IChartApi,
  type ISeriesApi,
  type LineData,
  type UTCTimestamp,
  type WhitespaceData,
} from 'lightweight-charts';
import type { CandleBar } from './chart-feed';
import { BOLLINGER, bollinger, MA_PERIOD, sma } from './indicators';

/** Which indicators the trader turned on (volume is always drawn under candles). */
export interface IndicatorChoice {
  ma: boolean;
  boll: boolean;
}

export interface OverlayColors {
  up: string;
  down: string;
  ma: string;
  band: string;
}

/** The newest bars an indicator's last point depends on: enough for either window. */
const TAIL = Math.max(MA_PERIOD, BOLLINGER.period);

type Point = LineData<UTCTimestamp> | WhitespaceData<UTCTimestamp>;
const point = (time: UTCTimestamp, value: number | null | undefined): Point =>
  value === null || value === undefined ? { time } : { time, value };

/**
 * A translucent version of a theme colour (#rgb or #rrggbb from the CSS variables), for volume
 * bars that must not outshout the candles; any other colour is used as it is.
 */
export function faded(color: string, alpha = 0.45): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())?.[1];
  if (!hex) return color;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/**
 * The series drawn with candles: volume bars in the bottom fifth on a scale of their own, a
 * moving average and Bollinger bands over the price. Kept apart from the chart component so its
 * effect stays about the feed; the indicators' math is in indicators.ts.
 */
export function candleOverlays(chart: IChartApi, colors: OverlayColors, shown: IndicatorChoice) {
  const volume = chart.addSeries(HistogramSeries, {
    priceScaleId: 'volume',
    priceFormat: { type: 'volume' },
    lastValueVisible: false,
    priceLineVisible: false,
  });
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  const line = (color: string, width: 1 | 2) =>
    chart.addSeries(LineSeries, {
      color,
      lineWidth: width,
      lastValueVisible: false,
      priceLineVisible: false,
      crosshairMarkerVisible: false,
    });
  const ma = line(colors.ma, 2);
  const bands = [line(colors.band, 1), line(colors.band, 1), line(colors.band, 1)] as const;
  let palette = colors;
  let bars: CandleBar[] = [];
  const show = (choice: IndicatorChoice) => {
    ma.applyOptions({ visible: choice.ma });
    for (const b of bands) b.applyOptions({ visible: choice.boll });
  };
  show(shown);

  const volumeBar = (b: CandleBar) => ({
    time: b.time,
    value: b.volume,
    color: faded(b.close >= b.open ? palette.up : palette.down),
  });
  /** The indicator points of bars[from…] (computed over the window before them too). */
  const indicatorPoints = (from: number) => {
    const start = Math.max(0, from - TAIL);
    const closes = bars.slice(start).map((b) => b.close);
    const means = sma(closes, MA_PERIOD);
    const band = bollinger(closes, BOLLINGER.period, BOLLINGER.multiplier);
    const out = {
      ma: [] as Point[],
      upper: [] as Point[],
      middle: [] as Point[],
      lower: [] as Point[],
    };
    for (let i = from - start; i < closes.length; i++) {
      const time = bars[start + i]!.time;
      out.ma.push(point(time, means[i]));
      out.upper.push(point(time, band[i]?.upper));
      out.middle.push(point(time, band[i]?.middle));
      out.lower.push(point(time, band[i]?.lower));
    }
    return out;
  };

  return {
    set(next: CandleBar[]) {
      bars = [...next];
      volume.setData(bars.map(volumeBar));
      const p = indicatorPoints(0);
      ma.setData(p.ma);
      bands[0].setData(p.upper);
      bands[1].setData(p.middle);
      bands[2].setData(p.lower);
    },
    update(bar: CandleBar) {
      if (bars.at(-1)?.time === bar.time) bars[bars.length - 1] = bar;
      else bars.push(bar);
      volume.update(volumeBar(bar));
      const p = indicatorPoints(bars.length - 1);
      ma.update(p.ma[0]!);
      bands[0].update(p.upper[0]!);
      bands[1].update(p.middle[0]!);
      bands[2].update(p.lower[0]!);
    },
    show,
    recolor(next: OverlayColors) {
      palette = next;
      ma.applyOptions({ color: next.ma });
      for (const b of bands) b.applyOptions({ color: next.band });
      volume.setData(bars.map(volumeBar));
    },
    /** How many points each indicator draws (for tests and tools, as data attributes). */
    counts() {
      const after = (period: number) => Math.max(0, bars.length - (period - 1));
      return { volume: bars.length, ma: after(MA_PERIOD), boll: after(BOLLINGER.period) };
    },
    remove(series: (s: ISeriesApi<'Histogram'> | ISeriesApi<'Line'>) => void) {
      for (const s of [volume, ma, ...bands]) series(s);
    },
  };
}

export type CandleOverlays = ReturnType<typeof candleOverlays>;
