import { useEffect, useState, type RefObject } from 'react';

/**
 * An element's height, kept up to date as a CSS variable on the document (`name`, in px) and
 * returned: the chart's height leaves room for what must show beside it (detail.css,
 * .chart-box).
 */
export function useHeightVar(ref: RefObject<HTMLElement | null>, name: string): number {
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
    root.style.setProperty(name, `${height}px`);
    return () => {
      root.style.removeProperty(name);
    };
  }, [name, height]);
  return height;
}

/**
 * The docked ticket's height: the page leaves that much room under its last lines, and
 * `--dock-h` lets the chart end above the dock.
 */
export function useDockHeight(ref: RefObject<HTMLElement | null>): number {
  return useHeightVar(ref, '--dock-h');
}
