/**
 * The figures an order card leads with, pure so they are tested apart from React: what an open
 * order would make or lose if it ended at the latest price, and how much of its time is left.
 */
import type { Order } from '@shared/orders/model';
import { payoutAt } from '@client/components/orders/order-math';

/**
 * Profit or loss (minor units) if the order settled at `price` now: what it would pay back less
 * its amount (+profit on a win, 0 on a draw, −amount on a loss). Null without a price or before
 * the entry tick, when there is nothing to compare with.
 */
export function pnlIfEndedNow(
  order: Pick<Order, 'direction' | 'amount' | 'rate' | 'entry'>,
  price: string | null,
): number | null {
  if (price === null) return null;
  const payout = payoutAt(order, price);
  return payout === null ? null : payout - order.amount;
}

/**
 * The share of an order's time still ahead at server time `now`, from 1 (just accepted) down
 * to 0 (expired), for the shrinking bar.
 */
export function timeLeftShare(order: Pick<Order, 'createdAt' | 'expiresAt'>, now: number): number {
  const total = order.expiresAt - order.createdAt;
  if (total <= 0) return 0;
  return Math.min(1, Math.max(0, (order.expiresAt - now) / total));
}
