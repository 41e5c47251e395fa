import { useEffect, useLayoutEffect, useRef } from 'react';
import { priceToUnits } from '@shared/price';
import { formatPrice } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { latestPerFrame, ticks$ } from '@client/streams';

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
        el.textContent = formatPrice(tick.price, precision, lang);
      });
    return () => sub.unsubscribe();
  }, [productId, precision, lang]);

  return <span ref={ref} className="live-price num" data-testid="price" data-direction="flat" />;
}
