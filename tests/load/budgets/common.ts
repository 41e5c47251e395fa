/** What the budget figures share: the budgets, a table row, medians, spreads and the load. */
import os from 'node:os';

// Issue 21's aims for a phone: 137 kB initial JS, first live price ≤ 1.2 s, Lighthouse ≥ 90 with
// Total Blocking Time ≤ 200 ms and Largest Contentful Paint ≤ 2.0 s (medians of 5).
export const budgets = {
  initialJsKb: 137,
  firstPriceMs: 1200,
  lighthouse: 90,
  tbtMs: 200,
  lcpMs: 2000,
};

export const HOME = '/#/pages/index/index';

export interface Row {
  metric: string;
  figure: string;
  budget: string;
  mark: 'pass' | 'FAIL' | 'not run' | 'info';
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** "min–max" of the values, each written by `format`. */
export const spread = (values: number[], format: (n: number) => string): string =>
  `${format(Math.min(...values))}–${format(Math.max(...values))}`;

/**
 * The machine's 1-minute load average: printed beside every run, because another process on the
 * same cores moves every figure here (a 2-core machine at load 2 gives the page half a core).
 */
export const loadNow = (): string => `load ${os.loadavg()[0]!.toFixed(2)}`;

/** Command-line `--name=value`, or undefined. */
export const option = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

export const flag = (name: string): boolean => process.argv.includes(`--${name}`);
