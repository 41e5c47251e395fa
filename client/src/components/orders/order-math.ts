/**
 * The money and price arithmetic of timed orders, as the screens need it. Integers in minor
 * units and decimal strings only: the same rules as the server (product/DECISIONS.md, "Timed
 * orders"), so what the ticket estimates is what settlement pays.
 */
import type { Direction, Order } from '@shared/orders/model';
import { rateToBp, winPayout } from '@shared/rates';
import { priceToUnits } from '@shared/price';

export interface Estimate {
  /** stake × rate, rounded down to the cent: what a win earns. */
  profit: number;
  /** stake + profit: what a win pays back. */
  payout: number;
}

/** The ticket's estimate for a stake (minor units) at a rate ("0.85"). */
export function estimate(amount: number, rate: string): Estimate {
  const payout = winPayout(amount, rateToBp(rate));
  return { profit: payout - amount, payout };
}

function decimals(price: string): number {
  const dot = price.indexOf('.');
  return dot === -1 ? 0 : price.length - dot - 1;
}

/** −1, 0 or 1 as decimal price `a` is below, equal to or above `b` (any number of decimals). */
export function comparePrices(a: string, b: string): -1 | 0 | 1 {
  const precision = Math.max(decimals(a), decimals(b));
  const diff = priceToUnits(a, precision) - priceToUnits(b, precision);
  return diff === 0 ? 0 : diff > 0 ? 1 : -1;
}

/** How an open order would end if it settled at `price`. */
export function outcomeAt(
  direction: Direction,
  entry: string,
  price: string,
): 'won' | 'lost' | 'draw' {
  const move = comparePrices(price, entry);
  if (move === 0) return 'draw';
  return move > 0 === (direction === 'up') ? 'won' : 'lost';
}

/**
 * What an open order would pay if it settled at `price` now: stake + stake × rate on a win, the
 * stake back on a draw, nothing on a loss. Null when the price cannot be read, or while the order
 * waits for its entry tick (nothing to compare with yet).
 */
export function payoutAt(
  order: Pick<Order, 'direction' | 'amount' | 'rate' | 'entry'>,
  price: string,
): number | null {
  if (!order.entry) return null;
  try {
    switch (outcomeAt(order.direction, order.entry.price, price)) {
      case 'won':
        return estimate(order.amount, order.rate).payout;
      case 'draw':
        return order.amount;
      case 'lost':
        return 0;
    }
  } catch {
    return null;
  }
}
