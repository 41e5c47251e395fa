import { useMemo } from 'react';
import type { Product } from '@shared/product';
import { getProduct, getProducts } from '@client/api/market';
import { mergeLive, type LiveProduct } from './live-product';
import { useMarket, useProductEvents } from './market';
import { prefetch, useRequest, type RequestState } from './request';

export type LiveRequest<T> = RequestState<T> & { retry: () => void };

const loadProducts = (signal: AbortSignal) => getProducts(undefined, signal);

/** Starts loading the product list for a page about to show it (see `prefetch`). */
export function prefetchProducts(): void {
  prefetch('products', loadProducts);
}

/** Every product from REST, kept live by the market snapshot (re-renders once a second). */
export function useProducts(): LiveRequest<LiveProduct[]> {
  const request = useRequest('products', loadProducts);
  const market = useMarket();
  const events = useProductEvents();
  const rows = request.status === 'ready' ? request.data : null;
  const data = useMemo(
    () => rows?.map((p) => mergeLive(p, market.get(p.id), events.get(p.id))) ?? null,
    [rows, market, events],
  );
  if (request.status !== 'ready' || data === null) return request as LiveRequest<LiveProduct[]>;
  return { status: 'ready', data, retry: request.retry };
}

/** One product from REST, kept live by the market snapshot; `raw` keeps the REST record. */
export function useProduct(id: string): LiveRequest<{ live: LiveProduct; raw: Product }> {
  const request = useRequest(`product:${id}`, (signal) => getProduct(id, signal));
  const market = useMarket();
  const events = useProductEvents();
  const raw = request.status === 'ready' ? request.data : null;
  const item = market.get(id);
  const event = events.get(id);
  const live = useMemo(() => (raw ? mergeLive(raw, item, event) : null), [raw, item, event]);
  if (request.status !== 'ready' || live === null || raw === null) {
    return request as LiveRequest<{ live: LiveProduct; raw: Product }>;
  }
  return { status: 'ready', data: { live, raw }, retry: request.retry };
}
