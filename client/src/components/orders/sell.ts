/**
 * Early close ("sell") on the client, kept pure: when an open position can be sold, what it is
 * worth now (the published formula, shared/src/orders/sell-value.ts, the very code the server
 * executes), and what a tap sends. docs/FAIRNESS.md, Early close; docs/DECISIONS.md.
 */
import type { Product } from '@shared/product';
import type { Order, SellOrderBody } from '@shared/orders/model';
import { sellValue } from '@shared/orders/sell-value';
import { priceToUnits } from '@shared/price';
import { rateToBp } from '@shared/rates';

export type EarlyCloseTerms = Product['earlyClose'];

/**
 * Why a position cannot be sold now: it waits for its entry tick, it is in the product's last
 * stretch before expiry, or there is no live price (offline, a silent feed, none yet).
 */
export type SellBlock = 'entry' | 'closing' | 'stale';

export interface SellState {
  /** The value now, minor units; null without an entry, a live price or the product's terms. */
  value: number | null;
  blocked: SellBlock | null;
}

/** The largest precision that writes both prices exactly (the ratio S/K does not depend on it). */
function commonPrecision(...prices: string[]): number {
  return Math.max(0, ...prices.map((p) => p.split('.')[1]?.length ?? 0));
}

/**
 * The sell value of `order` at `price` with `msLeft` to go, under the product's published terms:
 * null when it has no entry or a price does not parse.
 */
export function sellValueAt(
  order: Pick<Order, 'direction' | 'amount' | 'rate' | 'entry'>,
  price: string,
  msLeft: number,
  terms: Pick<EarlyCloseTerms, 'annualVol' | 'spreadBp'>,
): number | null {
  if (!order.entry) return null;
  try {
    const precision = commonPrecision(price, order.entry.price);
    return sellValue({
      direction: order.direction,
      amount: order.amount,
      rateBp: rateToBp(order.rate),
      entryPrice: priceToUnits(order.entry.price, precision),
      price: priceToUnits(price, precision),
      msLeft,
      annualVol: terms.annualVol,
      spreadBp: terms.spreadBp,
    });
  } catch {
    return null;
  }
}

/**
 * Whether an open position can be sold now and for how much: `now` on the server's clock,
 * `price` the latest tick's (null before one), `offline` the watchdog's verdict on the feed.
 */
export function sellState(
  order: Pick<Order, 'direction' | 'amount' | 'rate' | 'entry' | 'expiresAt'>,
  ctx: { price: string | null; now: number; offline: boolean; terms: EarlyCloseTerms | undefined },
): SellState {
  const msLeft = order.expiresAt - ctx.now;
  const value =
    ctx.price !== null && ctx.terms ? sellValueAt(order, ctx.price, msLeft, ctx.terms) : null;
  if (!order.entry) return { value: null, blocked: 'entry' };
  if (ctx.terms && msLeft <= ctx.terms.closesBeforeExpiryMs) return { value, blocked: 'closing' };
  if (ctx.offline || value === null) return { value, blocked: 'stale' };
  return { value, blocked: null };
}

/**
 * What a tap sends: the value shown, and 1 % of it as the tolerance (at least 1 cent, rounded
 * down): the sale runs at the next tick, which may move the value a little either way.
 */
export function sellBody(expected: number): SellOrderBody {
  return { expected, tolerance: Math.max(1, Math.floor(expected / 100)) };
}

/**
 * A sold order's value recomputed from its recorded inputs (the sale tick is its `exit`): what
 * anyone can check; null on an order that was not sold.
 */
export function recomputeSale(order: Order): number | null {
  if (order.status !== 'sold' || !order.sale || !order.exit) return null;
  return sellValueAt(order, order.exit.price, order.sale.msLeft, order.sale);
}
