import type { TapeTickDto } from '@shared/market/model';
import type { Candle, Interval, Product } from '@shared/product';
import * as market from '@shared/market/routes';
import { call } from './client';

/** One recorded tick of the public tape, as far as the chart reads it (the answer also has `qty`). */
export type TapeTick = Pick<TapeTickDto, 'seq' | 'ts' | 'price'>;

/** All products, or those whose name matches `q`. */
export function getProducts(q?: string, signal?: AbortSignal): Promise<Product[]> {
  return call(market.products, { query: { q } }, { signal });
}

/** One product; rejects with ApiError code NOT_FOUND for an unknown id. */
export function getProduct(id: string, signal?: AbortSignal): Promise<Product> {
  return call(market.product, { params: { id } }, { signal });
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
  return call(market.candles, { query }, { signal });
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
  return call(market.ticks, { query }, { signal });
}

/** The signed-in user's favourite product ids, in the order marked (the same on every device). */
export interface Favourites {
  products: string[];
}

export function getFavourites(): Promise<Favourites> {
  return call(market.favourites, {});
}

/** Marks or unmarks a favourite; answers the whole list as it now is. */
export function setFavourite(id: string, on: boolean): Promise<Favourites> {
  const input = { params: { id } };
  return on ? call(market.addFavourite, input) : call(market.removeFavourite, input);
}
