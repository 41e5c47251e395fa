import { HistogramSeries, type IChartApi, type ISeriesApi } from 'lightweight-charts';
import type { CandleBar } from './chart-feed';
import {
  indicatorKeys,
  paneKeys,
  type IndicatorChoice,
  type IndicatorKey,
  type IndicatorSettings,
} from './indicator-choice';
import { drawIndicator, type IndicatorColors, type IndicatorDrawing } from './indicator-drawings';

/** Which indicators the trader turned on, and their settings (indicator-choice.ts). */
export type { IndicatorChoice } from './indicator-choice';

export interface OverlayColors {
  up: string;
  down: string;
  ma: string;
  band: string;
}

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

/** The bars before an indicator's first value (its window less one; RSI needs a change more). */
export function warmup(key: IndicatorKey, s: IndicatorSettings): number {
  switch (key) {
    case 'ma':
    case 'ema':
      return s[key].period - 1;
    case 'boll':
      return s.boll.period - 1;
    case 'rsi':
      return s.rsi.period;
    case 'macd':
      return Math.max(s.macd.fast, s.macd.slow) - 1;
    case 'stoch':
      return s.stoch.k - 1;
  }
}

const isPane = (key: IndicatorKey) => (paneKeys as readonly IndicatorKey[]).includes(key);
/** The price pane's share beside the indicator panes (each 1): about half with all three. */
const PRICE_STRETCH = 2.5;

/**
 * The series drawn with candles: volume bars in the bottom fifth on a scale of their own; MA, EMA
 * and Bollinger bands over the price; RSI, MACD and the stochastic each in a pane under it. Only
 * the indicators turned on are computed, each incrementally (indicators-live.ts): a tick costs one
 * step of each. A toggle or a setting changed redraws that indicator from the bars kept here
 * (the panes under the price all together, as their places follow one another).
 */
export function candleOverlays(chart: IChartApi, colors: OverlayColors, shown: IndicatorChoice) {
  const volume = chart.addSeries(HistogramSeries, {
    priceScaleId: 'volume',
    priceFormat: { type: 'volume' },
    lastValueVisible: false,
    priceLineVisible: false,
  });
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  let palette = colors;
  let bars: CandleBar[] = [];
  let choice = shown;
  const drawn = new Map<IndicatorKey, { drawing: IndicatorDrawing; signature: string }>();
  /** Where the chart's attributes for tests and tools go (the element it was created in). */
  const host = chart.chartElement().parentElement;

  const indicatorColors = (): IndicatorColors => {
    const css = getComputedStyle(chart.chartElement());
    const second = css.getPropertyValue('--warning-text').trim() || palette.band;
    const grid = css.getPropertyValue('--border-subtle').trim() || palette.band;
    chart.applyOptions({ layout: { panes: { separatorColor: grid } } });
    return { ...palette, main: palette.ma, second, fade: (c) => faded(c) };
  };
  const drop = (series: ISeriesApi<'Line'> | ISeriesApi<'Histogram'>) => chart.removeSeries(series);

  const mark = () => {
    const el = host;
    if (!el) return;
    const panes = paneKeys.filter((k) => choice[k]);
    el.dataset.panes = panes.join(' ');
    el.dataset.paneCount = String(chart.panes().length);
    for (const key of indicatorKeys)
      el.dataset[`${key}Points`] = String(Math.max(0, bars.length - warmup(key, choice.settings)));
  };

  /** Draws what `next` asks for; `all` redraws everything (new colours). */
  const apply = (next: IndicatorChoice, all = false) => {
    choice = next;
    const panes = paneKeys.filter((k) => next[k]);
    const wanted = (key: IndicatorKey) =>
      next[key] ? JSON.stringify([next.settings[key], isPane(key) ? panes : 0]) : null;
    const changed = indicatorKeys.filter(
      (k) => all || (drawn.get(k)?.signature ?? null) !== wanted(k),
    );
    // A pane's index follows the panes before it: one changed, all of them are drawn again.
    const redo = changed.some(isPane) ? [...new Set([...changed, ...paneKeys])] : changed;
    for (const key of redo) {
      drawn.get(key)?.drawing.remove(drop);
      drawn.delete(key);
    }
    const left = chart.panes();
    for (let i = left.length - 1; i >= 1; i--)
      if (left[i]!.getSeries().length === 0) chart.removePane(i);
    const colors = indicatorColors();
    for (const key of indicatorKeys) {
      const signature = wanted(key);
      if (!redo.includes(key) || signature === null) continue;
      const pane = isPane(key) ? panes.indexOf(key as (typeof paneKeys)[number]) + 1 : 0;
      const drawing = drawIndicator(chart, key, next.settings, colors, pane);
      drawing.set(bars);
      drawn.set(key, { drawing, signature });
    }
    const all_ = chart.panes();
    all_.forEach((pane, i) => pane.setStretchFactor(i === 0 ? PRICE_STRETCH : 1));
    mark();
  };
  apply(shown);

  const volumeBar = (b: CandleBar) => ({
    time: b.time,
    value: b.volume,
    color: faded(b.close >= b.open ? palette.up : palette.down),
  });

  return {
    set(next: CandleBar[]) {
      bars = [...next];
      volume.setData(bars.map(volumeBar));
      for (const { drawing } of drawn.values()) drawing.set(bars);
      mark();
    },
    update(bar: CandleBar) {
      const last = bars.at(-1);
      if (last && bar.time < last.time) return;
      if (last?.time === bar.time) bars[bars.length - 1] = bar;
      else bars.push(bar);
      volume.update(volumeBar(bar));
      for (const { drawing } of drawn.values()) drawing.update(bar);
      if (last?.time !== bar.time) mark();
    },
    show: (next: IndicatorChoice) => apply(next),
    recolor(next: OverlayColors) {
      palette = next;
      apply(choice, true);
      volume.setData(bars.map(volumeBar));
    },
    /** How many points MA and Bollinger draw, when on (for tests and tools, as data attributes). */
    counts() {
      const after = (key: IndicatorKey) => Math.max(0, bars.length - warmup(key, choice.settings));
      return { volume: bars.length, ma: after('ma'), boll: after('boll') };
    },
    remove(series: (s: ISeriesApi<'Histogram'> | ISeriesApi<'Line'>) => void) {
      for (const { drawing } of drawn.values()) drawing.remove(series);
      drawn.clear();
      series(volume);
      // The line view has no indicators (the chart may be gone already: no call to it here).
      if (host) host.dataset.panes = '';
    },
  };
}

export type CandleOverlays = ReturnType<typeof candleOverlays>;
