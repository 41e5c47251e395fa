/**
 * The drawing tools' logic, free of the chart library and React (drawings.test.ts): which tool is
 * on, what a tap on the chart draws, and how a drawing's points (an instant and a price) map to
 * the chart's pixels and back. The chart's bars are the time axis: between two bars an instant
 * lies in proportion, before the first and after the last it goes on by one bar length per bar,
 * so a drawing made on one interval lies where it belongs on every other.
 */

export type DrawingMode = 'off' | 'hline' | 'trend';

/** A point of a drawing: an instant (epoch ms, whole) and a price at the product's decimals. */
export interface DrawPoint {
  time: number;
  price: string;
}

/** What a tap asks to be stored. */
export interface DrawingDraft {
  kind: 'hline' | 'trend';
  points: DrawPoint[];
}

/** The tool that is on, and a trend line's first point while it waits for its second. */
export interface ToolState {
  mode: DrawingMode;
  first: DrawPoint | null;
}

export const toolsOff: ToolState = { mode: 'off', first: null };

/** A tool's button: on (a trend line starts over), or off when it was the one on. */
export function chooseTool(state: ToolState, mode: Exclude<DrawingMode, 'off'>): ToolState {
  return state.mode === mode ? toolsOff : { mode, first: null };
}

/**
 * A tap at `point` (null: outside the price pane, or no price there): a horizontal line draws at
 * once; a trend line takes its first point, then draws at a second point at another instant.
 * A tool turns itself off once it has drawn (the next tap moves the chart again).
 */
export function tapWith(
  state: ToolState,
  point: DrawPoint | null,
): { state: ToolState; draw: DrawingDraft | null } {
  if (state.mode === 'off' || point === null) return { state, draw: null };
  if (state.mode === 'hline') return { state: toolsOff, draw: { kind: 'hline', points: [point] } };
  if (state.first === null) return { state: { mode: 'trend', first: point }, draw: null };
  if (state.first.time === point.time) return { state, draw: null };
  const points = [state.first, point].sort((a, b) => a.time - b.time);
  return { state: toolsOff, draw: { kind: 'trend', points } };
}

/** A bar length for a series of bar times (ms) with no interval of its own: their mean gap. */
export function meanGap(times: readonly number[], fallback = 1000): number {
  const n = times.length;
  if (n < 2) return fallback;
  const gap = (times[n - 1]! - times[0]!) / (n - 1);
  return gap > 0 ? gap : fallback;
}

/** The instant at a (fractional) bar index of `times` (ms, oldest first); null with no bars. */
export function timeAtLogical(logical: number, times: readonly number[], barMs: number) {
  const n = times.length;
  if (n === 0) return null;
  if (logical <= 0) return times[0]! + logical * barMs;
  if (logical >= n - 1) return times[n - 1]! + (logical - (n - 1)) * barMs;
  const i = Math.floor(logical);
  return times[i]! + (logical - i) * (times[i + 1]! - times[i]!);
}

/** The (fractional) bar index of an instant (ms) among `times`; null with no bars. */
export function logicalAtTime(time: number, times: readonly number[], barMs: number) {
  const n = times.length;
  if (n === 0) return null;
  if (time <= times[0]!) return (time - times[0]!) / barMs;
  if (time >= times[n - 1]!) return n - 1 + (time - times[n - 1]!) / barMs;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= time) lo = mid;
    else hi = mid;
  }
  const span = times[hi]! - times[lo]!;
  return lo + (span > 0 ? (time - times[lo]!) / span : 0);
}

/** What the drawings need of the chart: its bars' times and its two scales. */
export interface ChartAxes {
  /** The bars' times, ms, oldest first. */
  times: readonly number[];
  /** A bar's length in ms (past the last bar and before the first). */
  barMs: number;
  /** The price pane's plot: taps outside it draw nothing. */
  width: number;
  height: number;
  xToLogical(x: number): number | null;
  logicalToX(logical: number): number | null;
  yToPrice(y: number): number | null;
  priceToY(price: number): number | null;
}

/** A price (number) at `precision` decimals; null when it is not above zero once rounded. */
export function priceText(price: number, precision: number): string | null {
  if (!Number.isFinite(price)) return null;
  const text = price.toFixed(precision);
  return Number(text) > 0 ? text : null;
}

/** The point at a tap (x, y in the chart's pixels); null outside the price pane or below zero. */
export function pointAt(x: number, y: number, axes: ChartAxes, precision: number) {
  if (x < 0 || y < 0 || x > axes.width || y > axes.height) return null;
  const logical = axes.xToLogical(x);
  const price = axes.yToPrice(y);
  if (logical === null || price === null) return null;
  const time = timeAtLogical(logical, axes.times, axes.barMs);
  const text = priceText(price, precision);
  if (time === null || text === null) return null;
  return { time: Math.round(time), price: text };
}

/** Where a point lies on the chart (pixels); null while the chart cannot place it. */
export function pixelOf(point: DrawPoint, axes: ChartAxes): { x: number; y: number } | null {
  const logical = logicalAtTime(point.time, axes.times, axes.barMs);
  if (logical === null) return null;
  const x = axes.logicalToX(logical);
  const y = axes.priceToY(Number(point.price));
  return x === null || y === null ? null : { x, y };
}

/**
 * A trend line on screen: the segment between its points, and its continuation from the later
 * point to the plot's right edge (where the trend leads); null when a point cannot be placed.
 */
export function trendSegment(points: readonly DrawPoint[], axes: ChartAxes) {
  const [a, b] = points.map((p) => pixelOf(p, axes));
  if (!a || !b) return null;
  const ray =
    b.x > a.x && b.x < axes.width
      ? { x: axes.width, y: b.y + ((b.y - a.y) * (axes.width - b.x)) / (b.x - a.x) }
      : null;
  return { a, b, ray };
}
