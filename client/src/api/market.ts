import type { TapeTickDto } from '@shared/market';
import type { Candle, Interval, Product } from '@shared/product';
import { request } from './client';

/** One recorded tick of the public tape, as far as the chart reads it (the answer also has `qty`). */
export type TapeTick = Pick<TapeTickDto, 'seq' | 'ts' | 'price'>;

/** All products, or those whose name matches `q`. */
export function getProducts(q?: string, signal?: AbortSignal): Promise<Product[]> {
  return request<Product[]>('/market/products', { query: { q }, signal });
}

/** One product; rejects with ApiError code NOT_FOUND for an unknown id. */
export function getProduct(id: string, signal?: AbortSignal): Promise<Product> {
  return request<Product>(`/market/products/${encodeURIComponent(id)}`, { signal });
}

export interface CandleQuery {
  product: string;
  interval: Interval;
  /** At most 1000. */
  limit: number;
  /** Only candles that start before this time (epoch ms), for paging back. */
  before?: number;
}

/** Candles, oldest first. */
export function getCandles(query: CandleQuery, signal?: AbortSignal): Promise<Candle[]> {
  return request<Candle[]>('/market/candles', { query: { ...query }, signal });
}

export interface TickQuery {
  product: string;
  from: number;
  to: number;
  /** At most 1000. */
  limit: number;
}

/** The recorded tape between two times. */
export function getTicks(query: TickQuery, signal?: AbortSignal): Promise<TapeTick[]> {
  return request<TapeTick[]>('/market/ticks', { query: { ...query }, signal });
}

/** The signed-in user's favourite product ids, in the order marked (the same on every device). */
export interface Favourites {
  products: string[];
}

export function getFavourites(): Promise<Favourites> {
  return request<Favourites>('/me/favourites');
}

/** Marks or unmarks a favourite; answers the whole list as it now is. */
export function setFavourite(id: string, on: boolean): Promise<Favourites> {
  return request<Favourites>(`/me/favourites/${encodeURIComponent(id)}`, {
    method: on ? 'PUT' : 'DELETE',
  });
}
