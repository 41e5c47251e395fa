import {
  createSeriesMarkers,
  LineStyle,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type Logical,
  type SeriesMarker,
  type SeriesType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { Order } from '@shared/orders/model';
import { labelLayer, type LabelTexts } from './chart-labels';
import { groupLabels, pnlNow, type LabelItem } from './position-groups';
import { futureX, markerSpecs } from './positions';

export interface PositionColors {
  up: string;
  down: string;
  muted: string;
}

interface Expiry {
  el: HTMLElement;
  at: number;
}

/**
 * The first and last bar times the series holds (seconds) and its latest price (a candle's
 * close, the line's value), or null while it is empty.
 */
function seriesEdges(series: ISeriesApi<SeriesType>) {
  const data = series.data();
  const first = data[0]?.time;
  const newest = data.at(-1) as { time: unknown; close?: number; value?: number } | undefined;
  const last = newest?.time;
  const price = newest?.close ?? newest?.value ?? null;
  return typeof first === 'number' && typeof last === 'number' ? { first, last, price } : null;
}
type Edges = ReturnType<typeof seriesEdges>;

const directionColor = (o: Pick<Order, 'direction'>, palette: PositionColors) =>
  o.direction === 'up' ? palette.up : palette.down;

/** The entry and exit arrows of the orders whose bars the series holds (from `first` on). */
function orderMarkers(
  open: readonly Order[],
  closed: readonly Order[],
  barMs: number | null,
  first: number,
  palette: PositionColors,
) {
  const specs = markerSpecs(open, closed, barMs, first);
  const list: SeriesMarker<Time>[] = specs.map((m) => {
    const order = [...open, ...closed].find((o) => o.id === m.orderId)!;
    const tick = m.kind === 'entry' ? order.entry : order.exit;
    const color = m.open ? directionColor(order, palette) : palette.muted;
    return {
      time: m.time as UTCTimestamp,
      position: 'atPriceMiddle',
      price: Number(tick?.price),
      shape: order.direction === 'up' ? 'arrowUp' : 'arrowDown',
      color: m.kind === 'exit' ? palette.muted : color,
      size: m.open ? 1 : 0.6,
      id: `${m.kind}-${m.orderId}`,
    };
  });
  return { list, closedCount: specs.filter((m) => !m.open).length };
}

/**
 * The x of an instant on the time scale (it may lie in the future, past the last bar), and the
 * plot's width; null while there are no bars to measure by.
 */
function timeAxis(chart: IChartApi, range: Edges, barMs: number | null) {
  const scale = chart.timeScale();
  const index = range ? scale.timeToIndex(range.last as UTCTimestamp, true) : null;
  if (!range || index === null) return null;
  const lastX = scale.logicalToCoordinate(index as unknown as Logical);
  const nextX = scale.logicalToCoordinate((index + 1) as unknown as Logical);
  if (lastX === null || nextX === null) return null;
  const last = { time: range.last, x: lastX };
  return {
    x: (ms: number) => futureX(ms, last, nextX - lastX, barMs ?? 1000),
    plot: scale.width(),
  };
}
type Axis = ReturnType<typeof timeAxis>;

/** Places the expiry lines: hidden while there are no bars to measure by. */
function placeExpiries(axis: Axis, expiries: readonly Expiry[]) {
  for (const { el, at } of expiries) {
    if (!axis) {
      el.hidden = true;
      continue;
    }
    const x = axis.x(at);
    el.hidden = x < 0;
    // Beyond the right edge (a long order on a short view): held at the edge, marked so.
    const beyond = x > axis.plot - 1;
    el.dataset.beyond = String(beyond);
    el.style.transform = `translateX(${Math.round(beyond ? axis.plot - 1 : x)}px)`;
  }
}

/**
 * Scrolls candles so the furthest expiry is in view, with room for its label (up to 30 bars
 * ahead), never back.
 */
function revealExpiries(
  chart: IChartApi,
  range: Edges,
  open: readonly Order[],
  barMs: number | null,
) {
  if (!barMs || barMs <= 1000 || !range || open.length === 0) return;
  const furthest = Math.max(...open.map((o) => o.expiresAt));
  const ahead = Math.ceil((furthest / 1000 - range.last) / (barMs / 1000)) + 1;
  const scale = chart.timeScale();
  if (scale.scrollPosition() < ahead) scale.scrollToPosition(Math.min(ahead, 30), false);
}

/** Each open position's label anchor (expiry x, entry y), stake and P&L at the latest price. */
function labelItems(
  series: ISeriesApi<SeriesType>,
  axis: NonNullable<Axis>,
  open: readonly Order[],
  price: string | null,
): LabelItem[] {
  const items: LabelItem[] = [];
  for (const o of open) {
    if (!o.entry) continue;
    const y = series.priceToCoordinate(Number(o.entry.price));
    if (y === null) continue;
    const x = Math.min(Math.max(axis.x(o.expiresAt), 0), axis.plot - 1);
    items.push({ id: o.id, x, y, direction: o.direction, stake: o.amount, pnl: pnlNow(o, price) });
  }
  return items;
}

/**
 * The user's orders drawn over the price series: for each open position a dashed line at its
 * entry price in its direction's colour, an arrow at the entry, and a vertical line at expiry
 * (a DOM line over the canvas, placed from the time scale: the expiry lies in the future, where
 * the library has no bar to attach a mark to), and a label with its stake and P&L now, one for
 * positions that crowd (position-groups.ts); recent settled orders as small entry and exit
 * arrows. `layer` is the element the expiry lines go in (over the chart, not catching taps).
 */
export function positionMarks(
  chart: IChartApi,
  series: ISeriesApi<SeriesType>,
  layer: HTMLElement,
  colors: PositionColors,
  /** Bar length in ms; null for the line view (one point per second at most). */
  barMs: number | null,
  /** The prices' decimals, and what the labels say (read at each drawing: the language may change). */
  precision: number,
  texts: () => LabelTexts,
) {
  let palette = colors;
  let open: readonly Order[] = [];
  let closed: readonly Order[] = [];
  let lines: IPriceLine[] = [];
  let expiries: Expiry[] = [];
  const markers: ISeriesMarkersPluginApi<Time> = createSeriesMarkers(series, [], {
    autoScale: false,
  });
  const labels = labelLayer(layer);
  const colorOf = (o: Pick<Order, 'direction'>) => directionColor(o, palette);
  const edges = () => seriesEdges(series);

  const drawMarkers = () => {
    const range = edges();
    if (!range) {
      layer.dataset.closedMarks = '0';
      return markers.setMarkers([]);
    }
    const { list, closedCount } = orderMarkers(open, closed, barMs, range.first, palette);
    markers.setMarkers(list);
    layer.dataset.closedMarks = String(closedCount);
  };

  /**
   * Places the expiry lines and the labels (their P&L at the latest price); called when the
   * view scrolls, zooms, resizes or gets a tick.
   */
  const layout = () => {
    const range = edges();
    const axis = timeAxis(chart, range, barMs);
    placeExpiries(axis, expiries);
    const price = range?.price == null ? null : range.price.toFixed(precision);
    const groups = axis ? groupLabels(labelItems(series, axis, open, price)) : [];
    labels.draw(groups, texts());
  };

  const reveal = () => revealExpiries(chart, edges(), open, barMs);

  const drawLines = () => {
    for (const line of lines) series.removePriceLine(line);
    for (const { el } of expiries) el.remove();
    lines = [];
    expiries = [];
    for (const o of open) {
      if (o.entry) {
        lines.push(
          series.createPriceLine({
            price: Number(o.entry.price),
            color: colorOf(o),
            lineWidth: 1,
            lineStyle: LineStyle.Dashed,
            axisLabelVisible: false,
            // Said by the position's label (stake and P&L), grouped when they crowd.
            title: '',
          }),
        );
      }
      const el = document.createElement('div');
      el.className = `expiry-line expiry-line--${o.direction}`;
      el.dataset.testid = `expiry-line-${o.id}`;
      el.style.borderColor = colorOf(o);
      layer.append(el);
      expiries.push({ el, at: o.expiresAt });
    }
    layer.dataset.expiryLines = String(expiries.length);
  };

  const onRange = () => layout();
  chart.timeScale().subscribeVisibleLogicalRangeChange(onRange);

  return {
    /** The orders to draw (all of this product and mode). Returns the entry lines drawn. */
    set(nextOpen: readonly Order[], nextClosed: readonly Order[]): number {
      const added = nextOpen.some((o) => !open.some((p) => p.id === o.id));
      open = nextOpen;
      closed = nextClosed;
      drawLines();
      drawMarkers();
      if (added) reveal();
      layout();
      return lines.length;
    },
    /** A bar was drawn or the data reset: marks attach to bars, the expiry lines follow. */
    refresh(reset = false) {
      drawMarkers();
      if (reset) reveal();
      layout();
    },
    layout,
    recolor(next: PositionColors) {
      palette = next;
      drawLines();
      drawMarkers();
      layout();
    },
    remove(alive: boolean) {
      chart.timeScale().unsubscribeVisibleLogicalRangeChange(onRange);
      for (const { el } of expiries) el.remove();
      labels.remove();
      if (!alive) return;
      markers.detach();
      for (const line of lines) series.removePriceLine(line);
    },
  };
}

export type PositionMarks = ReturnType<typeof positionMarks>;
