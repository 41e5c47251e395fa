import { useMemo } from 'react';
import { atom, useAtomValue } from 'jotai';
import { atomWithQuery } from 'jotai-tanstack-query';
import type { Product } from '@shared/product';
import { getProduct } from '@client/api/market';
import { mergeLive, type LiveProduct } from './live-product';
import { marketAtom, productEventsAtom, useMarket, useProductEvents } from './market';
import { useApiQuery, type RequestState } from './queries';
import { productsQuery, queryClient, queryKeys } from './query-client';

export type LiveRequest<T> = RequestState<T> & { retry: () => void };

const productsQueryAtom = atomWithQuery(
  () => productsQuery,
  () => queryClient,
);

/** The product list from REST composed with the live market snapshot and product events. */
const liveProductsAtom = atom((get): LiveRequest<LiveProduct[]> => {
  const query = get(productsQueryAtom);
  const retry = () => void query.refetch();
  if (query.data) {
    const market = get(marketAtom);
    const events = get(productEventsAtom);
    const data = query.data.map((p) => mergeLive(p, market.get(p.id), events.get(p.id)));
    return { status: 'ready', data, retry };
  }
  if (query.status === 'error' && !query.isFetching) {
    return { status: 'error', error: query.error, retry };
  }
  return { status: 'loading', retry };
});

/** Every product from REST, kept live by the market snapshot (re-renders once a second). */
export function useProducts(): LiveRequest<LiveProduct[]> {
  return useAtomValue(liveProductsAtom);
}

/** One product from REST, kept live by the market snapshot; `raw` keeps the REST record. */
export function useProduct(id: string): LiveRequest<{ live: LiveProduct; raw: Product }> {
  const request = useApiQuery([...queryKeys.products, id], () => getProduct(id));
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

/**
 * A product's published early-close terms (its REST record, cached under the product's key):
 * what an open order's Sell button computes its value with; undefined until it is read.
 */
export function useEarlyCloseTerms(id: string): Product['earlyClose'] | undefined {
  const request = useApiQuery([...queryKeys.products, id], () => getProduct(id));
  return request.status === 'ready' ? request.data.earlyClose : undefined;
}
