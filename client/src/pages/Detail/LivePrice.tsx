import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { priceToUnits } from '@shared/price';
import { formatClock, formatPrice } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { useOffline } from '@client/state/market';
import { latestPerFrame, ticks$ } from '@client/streams';
import './live-price.css';

function compare(a: string, b: string, precision: number): number {
  try {
    return Math.sign(priceToUnits(a, precision) - priceToUnits(b, precision));
  } catch {
    return 0;
  }
}

/**
 * The big live price. Ticks come several times a second, so they are written to the DOM
 * directly instead of re-rendering the page, once per animation frame at most; `fallback` (the snapshot price) shows until the
 * first tick, and is all there is while the market is closed. React renders no text here, so it
 * never fights the direct writes. Mount one per product (key it by id).
 *
 * While the app is offline or the feed is silent (the watchdog's `offline`), the price is greyed
 * and says when its last tick was ("Last price 12:03:41"): a frozen number must never pass for a
 * live one (issue 37).
 */
export function LivePrice({
  productId,
  precision,
  fallback,
}: {
  productId: string;
  precision: number;
  fallback: string | null;
}) {
  const ref = useRef<HTMLSpanElement>(null);
  const lastTick = useRef<string | null>(null);
  const { lang } = useFormat();
  const { t } = useTranslation();
  const offline = useOffline();
  // The last tick's time, read only when the price goes stale (no render per tick).
  const lastTickAt = useRef<number | null>(null);
  const [staleSince, setStaleSince] = useState<number | null>(null);
  // Before paint: the label never shows for a frame without its time.
  useLayoutEffect(() => setStaleSince(offline ? lastTickAt.current : null), [offline]);

  // Before paint, so the price never flashes empty.
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && lastTick.current === null) el.textContent = formatPrice(fallback, precision, lang);
  }, [fallback, precision, lang]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (lastTick.current !== null) el.textContent = formatPrice(lastTick.current, precision, lang);
    // At most one write per animation frame, with the frame's newest price.
    const sub = ticks$(productId)
      .pipe(latestPerFrame())
      .subscribe(({ latest: tick }) => {
        const previous = lastTick.current;
        if (previous !== null) {
          const move = compare(tick.price, previous, precision);
          if (move !== 0) el.dataset.direction = move > 0 ? 'up' : 'down';
        }
        lastTick.current = tick.price;
        lastTickAt.current = tick.ts;
        el.textContent = formatPrice(tick.price, precision, lang);
      });
    return () => sub.unsubscribe();
  }, [productId, precision, lang]);

  return (
    <span className="live-price-box">
      <span
        ref={ref}
        className={`live-price num${offline ? ' live-price--stale' : ''}`}
        data-testid="price"
        data-direction="flat"
        data-stale={offline}
      />
      {offline && (
        <span className="live-price__stale num" data-testid="price-stale">
          {staleSince === null
            ? t('market.lastPriceAt', { time: '' }).trim()
            : t('market.lastPriceAt', { time: formatClock(staleSince, lang, true) })}
        </span>
      )}
    </span>
  );
}
