import { route } from '../contract/endpoint';
import type * as market from './endpoints';

/** The market's endpoints as the clients call them (no zod at run time). */
export const products = route<typeof market.products>('get', '/market/products');
export const product = route<typeof market.product>('get', '/market/products/:id');
export const candles = route<typeof market.candles>('get', '/market/candles');
export const ticks = route<typeof market.ticks>('get', '/market/ticks');
export const favourites = route<typeof market.favourites>('get', '/me/favourites');
export const addFavourite = route<typeof market.addFavourite>('put', '/me/favourites/:id');
export const removeFavourite = route<typeof market.removeFavourite>('delete', '/me/favourites/:id');
