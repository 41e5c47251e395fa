import { useEffect, useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import { fetchImage } from '../api';
import { useT } from '../useT';

const MIN = 1;
const MAX = 8;

/**
 * A private image (fetched with the bearer token into a blob URL), large, zoomable with the
 * wheel or a click (click: 1× → 2× → 4× → back), and dragged to pan when zoomed.
 */
export function ZoomImage(props: { id: string; alt: string; testId?: string }) {
  // Another image is another viewer: fresh zoom, no stale picture while the next one loads.
  return <Viewer key={props.id} {...props} />;
}

function Viewer({ id, alt, testId }: { id: string; alt: string; testId?: string }) {
  const { t } = useT();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [view, setView] = useState({ scale: 1, x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number; moved: boolean } | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    let made: string | null = null;
    fetchImage(id, abort.signal)
      .then((blob) => {
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => {
        if (!abort.signal.aborted) setFailed(true);
      });
    return () => {
      abort.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [id]);

  const zoomTo = (scale: number) =>
    setView((v) => {
      const next = Math.min(MAX, Math.max(MIN, scale));
      return next === 1 ? { scale: 1, x: 0, y: 0 } : { ...v, scale: next };
    });
  const onWheel = (e: WheelEvent) => zoomTo(view.scale * (e.deltaY < 0 ? 1.25 : 0.8));
  const onPointerDown = (e: PointerEvent) => {
    drag.current = { x: e.clientX, y: e.clientY, moved: false };
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || view.scale === 1) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (Math.abs(dx) + Math.abs(dy) > 2) d.moved = true;
    d.x = e.clientX;
    d.y = e.clientY;
    setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));
  };
  const onPointerUp = () => {
    const d = drag.current;
    drag.current = null;
    if (d && !d.moved) zoomTo(view.scale >= 4 ? 1 : view.scale * 2);
  };

  return (
    <figure className="ops-zoom">
      <div
        className="ops-zoom-frame"
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        style={{ cursor: view.scale > 1 ? 'grab' : 'zoom-in' }}
      >
        {url ? (
          <img
            src={url}
            alt={alt}
            data-testid={testId}
            draggable={false}
            style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
          />
        ) : (
          <span className="ops-muted">
            {failed ? t('common.imageFailed') : t('common.loading')}
          </span>
        )}
      </div>
      <figcaption>
        <span>{alt}</span>
        <span className="ops-zoom-tools">
          <button
            type="button"
            className="ops-btn"
            aria-label={t('review.zoomOut')}
            title={t('review.zoomOut')}
            onClick={() => zoomTo(view.scale / 1.5)}
          >
            −
          </button>
          <span aria-live="polite">{Math.round(view.scale * 100)}%</span>
          <button
            type="button"
            className="ops-btn"
            aria-label={t('review.zoomIn')}
            title={t('review.zoomIn')}
            onClick={() => zoomTo(view.scale * 1.5)}
          >
            +
          </button>
          <button type="button" className="ops-btn" onClick={() => zoomTo(1)}>
            {t('review.fit')}
          </button>
        </span>
      </figcaption>
    </figure>
  );
}
