import type { Order, TradeMode } from '@shared/orders/model';

/** A settled order as the result sheet shows it, with when it reached this client. */
export interface SettledResult {
  order: Order;
  /** Client time the settlement arrived (ms): the newest result leads the sheet. */
  at: number;
}

/** Results kept at most: enough for a burst of settlements, never a growing list. */
export const MAX_RESULTS = 20;

/** The statuses that end an order (an `order` event with one of them is a result). */
export const isFinal = (order: Order): boolean => order.status !== 'open';

/**
 * Adds a settlement to the results on the sheet: only final ones, each order once (a repeated
 * event, say after a reconnect, changes nothing), newest first, at most MAX_RESULTS.
 */
export function addResult(
  results: readonly SettledResult[],
  order: Order,
  at: number,
): readonly SettledResult[] {
  if (!isFinal(order) || results.some((r) => r.order.id === order.id)) return results;
  return [{ order, at }, ...results].slice(0, MAX_RESULTS);
}

export interface ResultGroup {
  count: number;
  /** Sum of P&L (minor units) per trade mode that has results; practice money never mixes with real. */
  pnl: Partial<Record<TradeMode, number>>;
  /** How many won, lost, were a draw or void, or were sold early. */
  byStatus: Record<'won' | 'lost' | 'draw' | 'void' | 'sold', number>;
}

/** The summary line of several results: "3 orders settled: +120.00". */
export function groupResults(results: readonly SettledResult[]): ResultGroup {
  const group: ResultGroup = {
    count: 0,
    pnl: {},
    byStatus: { won: 0, lost: 0, draw: 0, void: 0, sold: 0 },
  };
  for (const { order } of results) {
    if (order.status === 'open') continue;
    group.count += 1;
    group.byStatus[order.status] += 1;
    group.pnl[order.mode] = (group.pnl[order.mode] ?? 0) + pnlOf(order);
  }
  return group;
}

/** P&L of a settled order: the server's figure, else payout − amount. */
export function pnlOf(order: Order): number {
  if (order.pnl != null) return order.pnl;
  return (order.payout ?? 0) - order.amount;
}
