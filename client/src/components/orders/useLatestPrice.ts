import { useEffect, useState } from 'react';
import { ticks$ } from '@client/streams';

/**
 * The latest tick price of a product while mounted (null before the first). Components showing
 * the same product share one subscription, and a late one gets the latest tick at once.
 */
export function useLatestPrice(productId: string, enabled = true): string | null {
  const [price, setPrice] = useState<{ id: string; price: string } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const sub = ticks$(productId).subscribe((tick) =>
      setPrice({ id: productId, price: tick.price }),
    );
    return () => sub.unsubscribe();
  }, [productId, enabled]);
  return price?.id === productId ? price.price : null;
}
