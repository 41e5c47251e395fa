import { ColorType, TickMarkType, type Time } from 'lightweight-charts';
import { formatClock, formatDateTime, formatDay } from '@client/i18n/format';
import type { IndicatorChoice } from './chart-overlays';

/** The chart's colours (from the theme's CSS variables), price margins and axis formats. */
export function palette(el: HTMLElement) {
  const css = getComputedStyle(el);
  const get = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    background: get('--surface', '#ffffff'),
    text: get('--text-muted', '#5b6472'),
    grid: get('--border-subtle', '#eef0f3'),
    up: get('--up', '#0a8a52'),
    down: get('--down', '#d4283b'),
    accent: get('--accent', '#2563eb'),
    band: get('--text-muted', '#5b6472'),
  };
}
export type Palette = ReturnType<typeof palette>;

/** The chart's own colours (the series take theirs when created and on a theme change). */
export function chartColors(colors: Palette, el: HTMLElement) {
  return {
    layout: {
      background: { type: ColorType.Solid, color: colors.background },
      textColor: colors.text,
      fontFamily: getComputedStyle(el).fontFamily,
    },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderColor: colors.grid },
    timeScale: { borderColor: colors.grid },
  };
}

export const lineColors = (colors: Palette) => ({ color: colors.accent });
export const overlayColors = (colors: Palette) => ({
  up: colors.up,
  down: colors.down,
  ma: colors.accent,
  band: colors.band,
});
/** Candles keep clear of the volume bars in the bottom fifth; a line uses the whole height. */
export const priceMargins = (withVolume: boolean) => ({
  scaleMargins: withVolume ? { top: 0.1, bottom: 0.24 } : { top: 0.2, bottom: 0.1 },
});
export const positionColors = (colors: Palette) => ({
  up: colors.up,
  down: colors.down,
  muted: colors.text,
});
export const candleColors = (colors: Palette) => ({
  upColor: colors.up,
  downColor: colors.down,
  wickUpColor: colors.up,
  wickDownColor: colors.down,
});

/**
 * No last-price tag on the axis: the library draws it over the axis label beneath it, half
 * hiding that label. The dotted line still marks the last price, and the live price is the big
 * figure above the chart.
 */
export const lastPrice = { lastValueVisible: false, priceLineVisible: true } as const;

export const indicatorList = (c: IndicatorChoice) =>
  [c.ma && 'ma', c.boll && 'boll'].filter(Boolean).join(' ');

const timeMs = (time: Time) => (typeof time === 'number' ? time * 1000 : 0);

export function localization(lang: string, precision: number) {
  // Axis prices in the reader's decimal mark ("66900,00" in German), ungrouped to stay narrow.
  const price = new Intl.NumberFormat(lang, {
    minimumFractionDigits: precision,
    maximumFractionDigits: precision,
    useGrouping: false,
  });
  return {
    localization: {
      locale: lang,
      timeFormatter: (time: Time) => formatDateTime(timeMs(time), lang),
      priceFormatter: (value: number) => price.format(value),
    },
    timeScale: {
      // The library labels in UTC by default; users read their own clock, in their language.
      tickMarkFormatter: (time: Time, type: TickMarkType) => {
        const ms = timeMs(time);
        switch (type) {
          case TickMarkType.Year:
          case TickMarkType.Month:
          case TickMarkType.DayOfMonth:
            return formatDay(ms, lang);
          case TickMarkType.Time:
            return formatClock(ms, lang);
          case TickMarkType.TimeWithSeconds:
            return formatClock(ms, lang, true);
        }
      },
    },
  };
}
