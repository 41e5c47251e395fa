import {
  LineStyle,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesPrimitive,
  type Logical,
  type SeriesType,
  type Time,
} from 'lightweight-charts';
import type { ChartDrawing } from '@shared/drawings/model';
import { meanGap, trendSegment, type ChartAxes } from './drawings';

/** A canvas target as lightweight-charts hands it to a primitive (fancy-canvas, media pixels). */
interface MediaTarget {
  useMediaCoordinateSpace<T>(
    f: (scope: { context: CanvasRenderingContext2D; mediaSize: { width: number } }) => T,
  ): T;
}

/** The colour the drawings take (the text's: plain on either theme). */
export const drawingColor = (el: HTMLElement) =>
  getComputedStyle(el).getPropertyValue('--text').trim() || '#141a23';

/** The chart's scales and bars as the drawings read them (drawings.ts does the arithmetic). */
export function chartAxes(
  chart: IChartApi,
  series: ISeriesApi<SeriesType>,
  barMs: number | null,
): ChartAxes {
  const scale = chart.timeScale();
  const times = series.data().map((b) => (b.time as number) * 1000);
  return {
    times,
    barMs: barMs ?? meanGap(times),
    width: scale.width(),
    height: chart.panes()[0]?.getHeight() ?? 0,
    xToLogical: (x) => scale.coordinateToLogical(x),
    logicalToX: (l) => scale.logicalToCoordinate(l as Logical),
    yToPrice: (y) => series.coordinateToPrice(y),
    priceToY: (p) => series.priceToCoordinate(p),
  };
}

/**
 * The user's drawings over the price series: a horizontal line as a price line (with its price on
 * the axis), a trend line drawn by a series primitive (the library calls it at every redraw, so it
 * follows scrolls, zooms, new bars and the price scale), its segment and its continuation to the
 * right edge. The one selected is drawn thicker. What is drawn is written on `host` for tests
 * and tools (`data-drawing-lines`: the horizontal lines' prices, `data-trend-lines`: the count).
 */
export function drawingMarks(
  chart: IChartApi,
  series: ISeriesApi<SeriesType>,
  host: HTMLElement,
  barMs: number | null,
  color: () => string,
) {
  let drawings: readonly ChartDrawing[] = [];
  let selected: string | null = null;
  let lines: IPriceLine[] = [];
  let requestUpdate: (() => void) | null = null;
  const trends = () => drawings.filter((d) => d.kind === 'trend');

  const renderer = {
    draw(target: MediaTarget) {
      const axes = chartAxes(chart, series, barMs);
      target.useMediaCoordinateSpace(({ context }) => {
        context.save();
        context.strokeStyle = color();
        context.fillStyle = color();
        for (const d of trends()) {
          const seg = trendSegment(d.points, axes);
          if (!seg) continue;
          context.lineWidth = d.id === selected ? 3 : 1.5;
          context.setLineDash([]);
          context.beginPath();
          context.moveTo(seg.a.x, seg.a.y);
          context.lineTo(seg.b.x, seg.b.y);
          context.stroke();
          for (const p of [seg.a, seg.b]) {
            context.beginPath();
            context.arc(p.x, p.y, d.id === selected ? 4 : 2.5, 0, Math.PI * 2);
            context.fill();
          }
          if (seg.ray) {
            context.setLineDash([4, 4]);
            context.beginPath();
            context.moveTo(seg.b.x, seg.b.y);
            context.lineTo(seg.ray.x, seg.ray.y);
            context.stroke();
          }
        }
        context.restore();
      });
    },
  };
  const views = [{ renderer: () => renderer, zOrder: () => 'top' as const }];
  const primitive: ISeriesPrimitive<Time> = {
    attached: (p) => {
      requestUpdate = p.requestUpdate;
    },
    detached: () => {
      requestUpdate = null;
    },
    paneViews: () => views,
  };
  series.attachPrimitive(primitive);

  const drawLines = () => {
    for (const line of lines) series.removePriceLine(line);
    lines = drawings
      .filter((d) => d.kind === 'hline')
      .map((d) =>
        series.createPriceLine({
          price: Number(d.points[0]!.price),
          color: color(),
          lineWidth: d.id === selected ? 3 : 1,
          lineStyle: LineStyle.Solid,
          axisLabelVisible: true,
          title: '',
        }),
      );
    host.dataset.drawingLines = drawings
      .filter((d) => d.kind === 'hline')
      .map((d) => d.points[0]!.price)
      .join(' ');
    host.dataset.trendLines = String(trends().length);
    requestUpdate?.();
  };

  return {
    set(next: readonly ChartDrawing[], nextSelected: string | null) {
      drawings = next;
      selected = nextSelected;
      drawLines();
    },
    recolor: () => drawLines(),
    remove(alive: boolean) {
      delete host.dataset.drawingLines;
      delete host.dataset.trendLines;
      if (!alive) return;
      for (const line of lines) series.removePriceLine(line);
      series.detachPrimitive(primitive);
    },
  };
}

export type DrawingMarks = ReturnType<typeof drawingMarks>;
