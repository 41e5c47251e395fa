import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Order } from '@shared/orders/model';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import type { IndicatorChoice } from './chart-overlays';
import { useChartTop } from './chart-top';
import type { ChartView } from './chart-view';
import { DrawingTools, useChartDrawings } from './DrawingTools';
import { useChartSeries } from './useChartSeries';

export type { ChartView } from './chart-view';

const none: readonly Order[] = [];

/**
 * The price chart. Bars go from the feed straight into the series (setData / update); React
 * state changes only for loading, empty and error, never per tick (useChartSeries).
 */
export function Chart({
  productId,
  precision,
  view,
  indicators,
  open = none,
  closed = none,
  endsAt = null,
  children,
}: {
  productId: string;
  precision: number;
  view: ChartView;
  /** The moving average and Bollinger bands to draw over candles (not over the line). */
  indicators: IndicatorChoice;
  /** The user's open positions on this product (entry line, entry arrow, expiry line). */
  open?: readonly Order[];
  /** Recent settled orders on it (small entry and exit arrows). */
  closed?: readonly Order[];
  /** Where a closed market's history ends (its last tick, epoch ms); null: now. */
  endsAt?: number | null;
  /** Drawn over the chart (a closed market's note). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const containerRef = useRef<HTMLDivElement>(null);
  const layerRef = useRef<HTMLDivElement>(null);
  const drawings = useChartDrawings(productId, containerRef);
  const { status, retry } = useChartSeries({
    containerRef,
    layerRef,
    productId,
    precision,
    view,
    indicators,
    open,
    closed,
    endsAt,
    onSeries: drawings.onSeries,
  });
  // Where the chart starts on the page: with the dock's height it bounds the chart's height.
  const boxRef = useRef<HTMLDivElement>(null);
  useChartTop(boxRef);

  return (
    <div className="chart-box" ref={boxRef}>
      <div
        ref={containerRef}
        className="chart"
        data-testid="chart"
        // A figure, not an image: the chart library puts its attribution link inside.
        role="figure"
        aria-label={t('market.chartLabel')}
      />
      <div
        ref={layerRef}
        className="chart-box__positions"
        data-testid="position-layer"
        aria-hidden="true"
      />
      {children}
      {status.kind === 'ready' && (
        <DrawingTools state={drawings} containerRef={containerRef} precision={precision} />
      )}
      {status.kind !== 'ready' && (
        <div className="chart-box__overlay">
          {status.kind === 'loading' && <LoadingState />}
          {status.kind === 'empty' && <EmptyState />}
          {status.kind === 'error' && <ErrorState error={status.error} onRetry={retry} />}
        </div>
      )}
    </div>
  );
}
