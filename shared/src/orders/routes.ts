import { route } from '../contract/endpoint';
import type * as orders from './endpoints';

/** The orders' endpoints as the clients call them (no zod at run time; types from the endpoints). */
export const placeOrder = route<typeof orders.placeOrder>('post', '/orders', true);
export const listOrders = route<typeof orders.listOrders>('get', '/orders');
export const getOrder = route<typeof orders.getOrder>('get', '/orders/:id');
export const unseenResults = route<typeof orders.unseenResults>('get', '/orders/results/unseen');
export const resultsSeen = route<typeof orders.resultsSeen>('post', '/orders/results/seen');
export const sellOrder = route<typeof orders.sellOrder>('post', '/orders/:id/sell');
export const tradingStats = route<typeof orders.tradingStats>('get', '/orders/stats');
