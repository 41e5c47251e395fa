import { useEffect, useState, type RefObject } from 'react';

/**
 * The docked ticket's height, kept up to date: the page leaves that much room under its last
 * lines, and `--dock-h` on the document lets the chart end above the dock (detail.css,
 * .chart-box).
 */
export function useDockHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setHeight(el.offsetHeight));
    observer.observe(el);
    setHeight(el.offsetHeight);
    return () => observer.disconnect();
  }, [ref]);
  useEffect(() => {
    const root = document.documentElement;
    root.style.setProperty('--dock-h', `${height}px`);
    return () => {
      root.style.removeProperty('--dock-h');
    };
  }, [height]);
  return height;
}
