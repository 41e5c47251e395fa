import { route } from '../contract/endpoint';
import type * as alerts from './endpoints';

/** The price alerts' endpoints as the clients call them (no zod at run time). */
export const list = route<typeof alerts.alerts>('get', '/alerts');
export const create = route<typeof alerts.createAlert>('post', '/alerts');
export const remove = route<typeof alerts.deleteAlert>('delete', '/alerts/:id');
