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
import type { Order } from '@shared/orders';
import { orderNumber } from '@client/components/orders/order-number';
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

/** The first and last bar times the series holds (seconds), or null while it is empty. */
function seriesEdges(series: ISeriesApi<SeriesType>) {
  const data = series.data();
  const first = data[0]?.time;
  const last = data.at(-1)?.time;
  return typeof first === 'number' && typeof last === 'number' ? { first, last } : null;
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

/** Places the expiry lines from the time scale: hidden while there are no bars to measure by. */
function placeExpiries(
  chart: IChartApi,
  range: Edges,
  expiries: readonly Expiry[],
  barMs: number | null,
) {
  const scale = chart.timeScale();
  const index = range ? scale.timeToIndex(range.last, true) : null;
  const lastX = index === null ? null : scale.logicalToCoordinate(index as unknown as Logical);
  const nextX =
    index === null ? null : scale.logicalToCoordinate((index + 1) as unknown as Logical);
  const plot = scale.width();
  for (const { el, at } of expiries) {
    if (!range || lastX === null || nextX === null) {
      el.hidden = true;
      continue;
    }
    const x = futureX(at, { time: range.last, x: lastX }, nextX - lastX, barMs ?? 1000);
    el.hidden = x < 0;
    // Beyond the right edge (a long order on a short view): held at the edge, marked so.
    const beyond = x > plot - 1;
    el.dataset.beyond = String(beyond);
    el.style.transform = `translateX(${Math.round(beyond ? plot - 1 : x)}px)`;
  }
}

/**
 * The user's orders drawn over the price series: for each open position a dashed line at its
 * entry price in its direction's colour, an arrow at the entry, and a vertical line at expiry
 * (a DOM line over the canvas, placed from the time scale: the expiry lies in the future, where
 * the library has no bar to attach a mark to); recent settled orders as small entry and exit
 * arrows. `layer` is the element the expiry lines go in (over the chart, not catching taps).
 */
export function positionMarks(
  chart: IChartApi,
  series: ISeriesApi<SeriesType>,
  layer: HTMLElement,
  colors: PositionColors,
  /** Bar length in ms; null for the line view (one point per second at most). */
  barMs: number | null,
) {
  let palette = colors;
  let open: readonly Order[] = [];
  let closed: readonly Order[] = [];
  let lines: IPriceLine[] = [];
  let expiries: Expiry[] = [];
  const markers: ISeriesMarkersPluginApi<Time> = createSeriesMarkers(series, [], {
    autoScale: false,
  });
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

  /** Places the expiry lines; called when the view scrolls, zooms, resizes or gets a bar. */
  const layout = () => placeExpiries(chart, edges(), expiries, barMs);

  /** Scrolls candles so the furthest expiry is in view (up to 30 bars ahead), never back. */
  const reveal = () => {
    const range = edges();
    if (!barMs || barMs <= 1000 || !range || open.length === 0) return;
    const furthest = Math.max(...open.map((o) => o.expiresAt));
    const ahead = Math.ceil((furthest / 1000 - range.last) / (barMs / 1000)) + 1;
    const scale = chart.timeScale();
    if (scale.scrollPosition() < ahead) scale.scrollToPosition(Math.min(ahead, 30), false);
  };

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
            title: orderNumber(o.id),
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
      if (!alive) return;
      markers.detach();
      for (const line of lines) series.removePriceLine(line);
    },
  };
}

export type PositionMarks = ReturnType<typeof positionMarks>;
