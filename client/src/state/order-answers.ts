import { Subject } from 'rxjs';
import type { Order } from '@shared/orders/model';
import { applyOrder } from './orders';
import { answeredResult } from './unseen-results';

const answers = new Subject<Order>();

/** Orders as this device's requests answered them (a sale), for views that follow `order` events. */
export const orderAnswer$ = answers.asObservable();

/**
 * An order's new state from a request's answer (a sale), taken as its `order` event would be:
 * the detail page's positions, the order lists and the results (toasted once: the event that
 * follows is the same order, and changes nothing).
 */
export function orderAnswered(order: Order): void {
  answers.next(order);
  applyOrder(order);
  answeredResult(order);
}
