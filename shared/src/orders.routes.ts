import { route } from './contract/endpoint';
import type * as orders from './orders.endpoints';

/** The orders' endpoints as the clients call them (no zod at run time; types from the endpoints). */
export const placeOrder = route<typeof orders.placeOrder>('post', '/orders', true);
export const listOrders = route<typeof orders.listOrders>('get', '/orders');
export const getOrder = route<typeof orders.getOrder>('get', '/orders/:id');
