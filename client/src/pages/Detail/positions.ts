/**
 * The detail page's view of the user's orders on one product, kept pure so it is tested apart
 * from React and the chart: which orders to draw, whether an open one is in the money now, what
 * it would pay, and where its marks go on the chart's time axis.
 */
import type { Direction, Order, TradeMode } from '@shared/orders/model';
import { comparePrices, payoutAt } from '@client/components/orders/order-math';

/** Closed orders drawn as entry/exit arrows: the newest few, so the chart stays readable. */
export const RECENT_CLOSED = 10;

/** Open orders of this product and mode, the soonest to expire first. */
export function openPositions(
  orders: readonly Order[],
  productId: string,
  mode: TradeMode,
): Order[] {
  return orders
    .filter((o) => o.status === 'open' && o.productId === productId && o.mode === mode)
    .sort((a, b) => a.expiresAt - b.expiresAt || a.id.localeCompare(b.id));
}

/** Settled orders of this product and mode with both ticks, newest first, at most `limit`. */
export function recentClosed(
  orders: readonly Order[],
  productId: string,
  mode: TradeMode,
  limit = RECENT_CLOSED,
): Order[] {
  return orders
    .filter(
      (o) =>
        o.status !== 'open' &&
        o.productId === productId &&
        o.mode === mode &&
        o.entry !== null &&
        o.exit !== null,
    )
    .sort((a, b) => (b.exit?.ts ?? 0) - (a.exit?.ts ?? 0))
    .slice(0, limit);
}

/**
 * True when the order would win if it ended at `price`: above the entry for "up", below for
 * "down". False on a tie (a draw only refunds), without an entry yet, or without a price.
 */
export function inTheMoney(
  order: Pick<Order, 'direction' | 'entry'>,
  price: string | null,
): boolean {
  if (!order.entry || price === null) return false;
  try {
    const move = comparePrices(price, order.entry.price);
    return order.direction === 'up' ? move > 0 : move < 0;
  } catch {
    return false;
  }
}

/**
 * What an open order would pay if it ended at `price`: the payout on a win, the stake on a tie,
 * 0 on a loss; null while there is no entry or no price to compare.
 */
export function paysNow(
  order: Pick<Order, 'direction' | 'amount' | 'rate' | 'entry'>,
  price: string | null,
): number | null {
  return price === null ? null : payoutAt(order, price);
}

/** A time on the chart's axis (seconds) for an epoch-ms instant: the start of its bar. */
export function barTime(ms: number, barMs: number | null): number {
  const s = Math.floor(ms / 1000);
  if (!barMs || barMs <= 1000) return s;
  const step = barMs / 1000;
  return Math.floor(s / step) * step;
}

export interface MarkerSpec {
  /** Axis time in seconds (the bar the instant falls in). */
  time: number;
  kind: 'entry' | 'exit';
  direction: Direction;
  orderId: string;
  open: boolean;
}

/**
 * The arrows on the series: an entry mark for every open position, an entry and an exit for each
 * recent closed order. Sorted by time, as the chart library wants them; marks before the first
 * bar drawn (`firstTime`) are left out, since they have no bar to sit on.
 */
export function markerSpecs(
  open: readonly Order[],
  closed: readonly Order[],
  barMs: number | null,
  firstTime: number | null,
): MarkerSpec[] {
  const out: MarkerSpec[] = [];
  for (const o of open)
    if (o.entry)
      out.push({
        time: barTime(o.entry.ts, barMs),
        kind: 'entry',
        direction: o.direction,
        orderId: o.id,
        open: true,
      });
  for (const o of closed) {
    if (o.entry)
      out.push({
        time: barTime(o.entry.ts, barMs),
        kind: 'entry',
        direction: o.direction,
        orderId: o.id,
        open: false,
      });
    if (o.exit)
      out.push({
        time: barTime(o.exit.ts, barMs),
        kind: 'exit',
        direction: o.direction,
        orderId: o.id,
        open: false,
      });
  }
  return out
    .filter((m) => firstTime === null || m.time >= firstTime)
    .sort((a, b) => a.time - b.time);
}

/**
 * The x of a moment on a chart whose last bar is at `lastTime` (seconds) and `lastX` pixels, with
 * `spacing` pixels per bar of `barMs`: used for the expiry line, which lies in the future, past
 * the bars the library can place.
 */
export function futureX(
  ms: number,
  last: { time: number; x: number },
  spacing: number,
  barMs: number,
): number {
  return last.x + ((ms / 1000 - last.time) / (barMs / 1000)) * spacing;
}
