import { useEffect, useRef, type RefObject } from 'react';
import { createChart, type IChartApi } from 'lightweight-charts';
import { chartColors, localization, palette } from './chart-style';

/**
 * The chart itself, made once in `containerRef`'s element and removed with it (its series go
 * with it); its price and time labels follow the language and the product's precision.
 */
export function useChartCanvas(
  containerRef: RefObject<HTMLDivElement | null>,
  lang: string,
  precision: number,
): RefObject<IChartApi | null> {
  const chartRef = useRef<IChartApi | null>(null);

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
  }, [containerRef]);

  useEffect(() => {
    chartRef.current?.applyOptions(localization(lang, precision));
  }, [lang, precision]);

  return chartRef;
}
