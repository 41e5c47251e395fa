import { describe, expect, it } from 'vitest';
import {
  chooseTool,
  logicalAtTime,
  meanGap,
  pixelOf,
  pointAt,
  priceText,
  tapWith,
  timeAtLogical,
  toolsOff,
  trendSegment,
  type ChartAxes,
} from './drawings';

/** Minute bars from 12:00, 10 px apart from x = 5, and 100 price units per 50 px from 200 at y = 0. */
const t0 = Date.UTC(2026, 11, 7, 12, 0);
const axes: ChartAxes = {
  times: [0, 1, 2, 3, 4].map((i) => t0 + i * 60_000),
  barMs: 60_000,
  width: 300,
  height: 200,
  xToLogical: (x) => (x - 5) / 10,
  logicalToX: (l) => 5 + l * 10,
  yToPrice: (y) => 200 - y * 2,
  priceToY: (p) => (200 - p) / 2,
};

describe('drawing tools', () => {
  it('turn on, switch and turn off with their buttons', () => {
    const line = chooseTool(toolsOff, 'hline');
    expect(line).toEqual({ mode: 'hline', first: null });
    expect(chooseTool(line, 'hline')).toEqual(toolsOff);
    const trend = chooseTool(line, 'trend');
    expect(trend).toEqual({ mode: 'trend', first: null });
    // A trend line half drawn starts over when its button is pressed again and again.
    const half = tapWith(trend, { time: t0, price: '100.00' }).state;
    expect(chooseTool(chooseTool(half, 'trend'), 'trend')).toEqual({ mode: 'trend', first: null });
  });

  it('draw a horizontal line with one tap and a trend line with two at different instants', () => {
    const p = { time: t0, price: '150.00' };
    expect(tapWith(toolsOff, p)).toEqual({ state: toolsOff, draw: null });
    expect(tapWith({ mode: 'hline', first: null }, p)).toEqual({
      state: toolsOff,
      draw: { kind: 'hline', points: [p] },
    });
    // A tap outside the pane changes nothing.
    expect(tapWith({ mode: 'hline', first: null }, null)).toEqual({
      state: { mode: 'hline', first: null },
      draw: null,
    });
    const first = tapWith({ mode: 'trend', first: null }, p);
    expect(first).toEqual({ state: { mode: 'trend', first: p }, draw: null });
    // The same instant again is no line: the tool waits for another.
    expect(tapWith(first.state, { time: t0, price: '120.00' }).draw).toBeNull();
    const earlier = { time: t0 - 60_000, price: '90.00' };
    expect(tapWith(first.state, earlier)).toEqual({
      state: toolsOff,
      draw: { kind: 'trend', points: [earlier, p] },
    });
  });
});

describe('a tap’s point and a point’s place', () => {
  it('maps bar indexes to instants in proportion, and on by bar lengths past the edges', () => {
    const times = [1000, 2000, 4000];
    expect(timeAtLogical(0.5, times, 1000)).toBe(1500);
    expect(timeAtLogical(1.5, times, 1000)).toBe(3000);
    expect(timeAtLogical(-2, times, 1000)).toBe(-1000);
    expect(timeAtLogical(4, times, 1000)).toBe(6000);
    expect(timeAtLogical(1, [], 1000)).toBeNull();
    for (const l of [-2, 0, 0.25, 1, 1.5, 2, 5.5])
      expect(logicalAtTime(timeAtLogical(l, times, 1000)!, times, 1000)).toBeCloseTo(l, 9);
    expect(logicalAtTime(5, [], 1000)).toBeNull();
    expect(meanGap(times)).toBe(1500);
    expect(meanGap([7])).toBe(1000);
  });

  it('reads a tap as an instant and a price at the product’s decimals', () => {
    // x 25 is bar 2 (12:02); y 40 is price 120.
    expect(pointAt(25, 40, axes, 2)).toEqual({ time: t0 + 120_000, price: '120.00' });
    // Between bars, and past the last bar (the future), in proportion.
    expect(pointAt(30, 40.5, axes, 2)).toEqual({ time: t0 + 150_000, price: '119.00' });
    expect(pointAt(65, 0, axes, 3)).toEqual({ time: t0 + 360_000, price: '200.000' });
    // Outside the pane, and at or below zero, nothing.
    expect(pointAt(301, 40, axes, 2)).toBeNull();
    expect(pointAt(25, 201, axes, 2)).toBeNull();
    expect(pointAt(25, 100, axes, 2)).toBeNull();
    expect(pointAt(-1, 40, axes, 2)).toBeNull();
    expect(priceText(0.004, 2)).toBeNull();
    expect(priceText(0.005, 2)).toBe('0.01');
    expect(priceText(Number.NaN, 2)).toBeNull();
  });

  it('places points back where they were tapped, and a trend line’s continuation at the edge', () => {
    const p = pointAt(45, 60, axes, 2)!;
    expect(pixelOf(p, axes)).toEqual({ x: 45, y: 60 });
    const seg = trendSegment(
      [
        { time: t0, price: '100.00' },
        { time: t0 + 60_000, price: '110.00' },
      ],
      axes,
    )!;
    expect(seg.a).toEqual({ x: 5, y: 50 });
    expect(seg.b).toEqual({ x: 15, y: 45 });
    // Rising 10 per bar (5 px per 10 px) to x 300.
    expect(seg.ray).toEqual({ x: 300, y: 45 - (5 * 285) / 10 });
    const none = { ...axes, times: [] };
    expect(trendSegment([p, p], none)).toBeNull();
  });
});
