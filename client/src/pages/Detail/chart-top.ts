import { useEffect, type RefObject } from 'react';

/**
 * Where the chart starts on the page, kept up to date as `--chart-top` on the chart's box: with
 * the dock's height (dock-height.ts) it bounds the chart's height (detail.css, .chart-box).
 */
export function useChartTop(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const box = ref.current;
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
  }, [ref]);
}
