import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { IChartApi, ISeriesApi, SeriesType } from 'lightweight-charts';
import type { ChartDrawing } from '@shared/drawings/model';
import { useTheme } from '@client/app/theme';
import { errorText } from '@client/components/error-text';
import { useFormat } from '@client/i18n/useFormat';
import { useDrawings } from '@client/state/drawings';
import { showToast } from '@client/state/toast';
import { chartAxes, drawingColor, drawingMarks, type DrawingMarks } from './chart-drawings';
import { chooseTool, pointAt, tapWith, toolsOff, type ToolState } from './drawings';
import './drawings.css';

interface SeriesContext {
  chart: IChartApi;
  series: ISeriesApi<SeriesType>;
  barMs: number | null;
}

/**
 * The user's drawings on this product's chart: kept on the server (useDrawings), drawn over each
 * price series the chart makes (`onSeries`, handed to the chart's series hook), and the tools
 * that add and remove them (`DrawingTools`).
 */
export function useChartDrawings(
  productId: string,
  containerRef: RefObject<HTMLDivElement | null>,
) {
  const { t } = useTranslation();
  const store = useDrawings(productId, (error) => showToast(errorText(t, error)));
  const [selected, setSelected] = useState<string | null>(null);
  const marksRef = useRef<DrawingMarks | null>(null);
  const contextRef = useRef<SeriesContext | null>(null);
  const latest = useRef({ drawings: store.drawings, selected });
  useEffect(() => {
    latest.current = { drawings: store.drawings, selected };
    marksRef.current?.set(store.drawings, selected);
  }, [store.drawings, selected]);
  const { theme } = useTheme();
  useEffect(() => {
    marksRef.current?.recolor();
  }, [theme]);

  const onSeries = useCallback(
    (chart: IChartApi, series: ISeriesApi<SeriesType>, barMs: number | null) => {
      const el = containerRef.current;
      if (!el) return () => undefined;
      const marks = drawingMarks(chart, series, el, barMs, () => drawingColor(el));
      marks.set(latest.current.drawings, latest.current.selected);
      marksRef.current = marks;
      contextRef.current = { chart, series, barMs };
      return (alive: boolean) => {
        if (marksRef.current === marks) marksRef.current = null;
        if (contextRef.current?.series === series) contextRef.current = null;
        marks.remove(alive);
      };
    },
    [containerRef],
  );
  return { ...store, selected, setSelected, onSeries, contextRef };
}

type ChartDrawingsState = ReturnType<typeof useChartDrawings>;

/** A drawing as the list says it: a line at its price, a trend line from one price to the other. */
function drawingText(d: ChartDrawing, t: TFunction, fmt: (p: string) => string): string {
  return d.kind === 'hline'
    ? t('drawings.lineItem', { price: fmt(d.points[0]!.price) })
    : t('drawings.trendItem', { from: fmt(d.points[0]!.price), to: fmt(d.points[1]!.price) });
}

/**
 * The drawing tools over the chart, for the thumb: a horizontal line (one tap on the chart), a
 * trend line (two taps), and the list of this product's drawings, each with its remove button,
 * and "clear all". While a tool is on, a layer over the chart takes the taps (the chart does not
 * scroll under them) and a line above says what to tap. Signed in only (drawings are the user's).
 */
export function DrawingTools({
  state,
  containerRef,
  precision,
}: {
  state: ChartDrawingsState;
  containerRef: RefObject<HTMLDivElement | null>;
  precision: number;
}) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const [tool, setTool] = useState<ToolState>(toolsOff);
  const [listOpen, setListOpen] = useState(false);
  const fmt = (price: string) =>
    Number(price).toLocaleString(lang, {
      minimumFractionDigits: precision,
      maximumFractionDigits: precision,
    });
  if (!state.loggedIn) return null;

  const onTap = (e: React.PointerEvent<HTMLDivElement>) => {
    const el = containerRef.current;
    const ctx = state.contextRef.current;
    if (!el || !ctx) return;
    const box = el.getBoundingClientRect();
    const axes = chartAxes(ctx.chart, ctx.series, ctx.barMs);
    const point = pointAt(e.clientX - box.left, e.clientY - box.top, axes, precision);
    const next = tapWith(tool, point);
    setTool(next.state);
    if (next.draw) state.add(next.draw);
  };
  const hint =
    tool.mode === 'hline'
      ? t('drawings.hintLine')
      : tool.mode === 'trend'
        ? t(tool.first ? 'drawings.hintTrendSecond' : 'drawings.hintTrendFirst')
        : null;
  const count = state.drawings.length;

  return (
    <>
      {tool.mode !== 'off' && (
        <div
          className="drawing-capture"
          data-testid="drawing-capture"
          data-mode={tool.mode}
          onPointerUp={onTap}
        />
      )}
      <div className="drawing-tools" role="toolbar" aria-label={t('drawings.tools')}>
        <button
          type="button"
          className="drawing-tools__button"
          data-testid="drawing-tool-hline"
          aria-pressed={tool.mode === 'hline'}
          aria-label={t('drawings.line')}
          title={t('drawings.line')}
          onClick={() => {
            setListOpen(false);
            setTool((s) => chooseTool(s, 'hline'));
          }}
        >
          <span aria-hidden="true" className="drawing-tools__icon drawing-tools__icon--hline" />
        </button>
        <button
          type="button"
          className="drawing-tools__button"
          data-testid="drawing-tool-trend"
          aria-pressed={tool.mode === 'trend'}
          aria-label={t('drawings.trend')}
          title={t('drawings.trend')}
          onClick={() => {
            setListOpen(false);
            setTool((s) => chooseTool(s, 'trend'));
          }}
        >
          <span aria-hidden="true" className="drawing-tools__icon drawing-tools__icon--trend" />
        </button>
        <button
          type="button"
          className="drawing-tools__button"
          data-testid="drawing-list-toggle"
          aria-expanded={listOpen}
          aria-controls="drawing-list"
          title={t('drawings.list', { count })}
          onClick={() => {
            setTool(toolsOff);
            setListOpen((open) => !open);
          }}
        >
          {/* Named by its text, so the count shown is part of the name (axe). */}
          <span className="visually-hidden">{t('drawings.list', { count })}</span>
          <span aria-hidden="true">{count}</span>
        </button>
      </div>
      {hint && (
        <div className="drawing-hint" role="status" data-testid="drawing-hint">
          <span>{hint}</span>
          <button type="button" className="drawing-hint__cancel" onClick={() => setTool(toolsOff)}>
            {t('drawings.cancel')}
          </button>
        </div>
      )}
      {listOpen && <DrawingList state={state} fmt={fmt} />}
    </>
  );
}

/** This product's drawings, each to pick out (drawn thicker) or remove, and "clear all". */
function DrawingList({
  state,
  fmt,
}: {
  state: ChartDrawingsState;
  fmt: (price: string) => string;
}) {
  const { t } = useTranslation();
  const count = state.drawings.length;
  return (
    <div className="drawing-list" id="drawing-list" data-testid="drawing-list">
      {count === 0 ? (
        <p className="drawing-list__empty">{t('drawings.empty')}</p>
      ) : (
        <ul>
          {state.drawings.map((d) => (
            <li
              key={d.id}
              className="drawing-list__item"
              data-testid={`drawing-item-${d.kind}`}
              data-selected={d.id === state.selected}
            >
              <button
                type="button"
                className="drawing-list__name"
                aria-pressed={d.id === state.selected}
                onClick={() => state.setSelected(d.id === state.selected ? null : d.id)}
              >
                {drawingText(d, t, fmt)}
              </button>
              <button
                type="button"
                className="drawing-list__remove"
                data-testid="drawing-remove"
                aria-label={`${t('drawings.remove')}: ${drawingText(d, t, fmt)}`}
                disabled={d.id.startsWith('pending-')}
                onClick={() => state.remove(d.id)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {count > 0 && (
        <button
          type="button"
          className="drawing-list__clear"
          data-testid="drawing-clear"
          onClick={() => state.clear()}
        >
          {t('drawings.clearAll')}
        </button>
      )}
    </div>
  );
}
