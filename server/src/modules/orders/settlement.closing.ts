import type { Db } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { UserEvents } from '@server/platform/user-events';
import type { TradeMode } from '@shared/orders/model';
import { orderAccounts, type Leg, type TransferSpec } from '../ledger/ledger';
import type * as repo from './orders.repo';
import type { OrdersService } from './orders.service';

/** What a settlement worker needs, and the pieces of a closing both its paths write. */

export interface WorkerDeps {
  db: Db;
  orders: Pick<OrdersService, 'present'>;
  userEvents: UserEvents;
  balancesChanged: (userIds: number[]) => void;
  maxFeedDelayMs: number;
  log?: Logger;
  batchSize?: number;
  idleMs?: number;
  /** Observes each settled order's lag (committed and announced − expiry, ms) for metrics and benchmarks. */
  onSettled?: (lagMs: number, order: SettledFacts) => void;
  /**
   * Observes each entry decided: written (lag = written − the entry tick's time, ms) or void
   * for want of a tick (lag = voided − acceptance).
   */
  onEntry?: (lagMs: number, outcome: 'entered' | 'void', order: SettledFacts) => void;
}

/** What metrics learn of a decided order. */
export interface SettledFacts {
  status: string;
  mode: TradeMode;
  productId: string;
  voidReason: string | null;
}

export const factsOf = (row: repo.OrderRow): SettledFacts => ({
  status: row.status,
  mode: row.mode,
  productId: row.product_id,
  voidReason: row.void_reason,
});

/**
 * The one ledger transfer that ends an order (as closed): the stake leaves in_orders, the payout
 * goes to available, the difference to (or from) the house. Its unique ref makes a second one
 * impossible. A practice order's transfer moves practice accounts only (its mode's in_orders,
 * available and house account).
 */
export function closingTransfer(row: repo.OrderRow): TransferSpec {
  const a = orderAccounts[row.mode];
  const payout = row.payout ?? 0;
  const legs: Leg[] = [{ account: { user: row.user_id, kind: a.inOrders }, amount: -row.amount }];
  if (payout > 0) legs.push({ account: { user: row.user_id, kind: a.available }, amount: payout });
  if (payout !== row.amount)
    legs.push({ account: { house: a.house }, amount: row.amount - payout });
  const kind =
    row.status === 'won' ? 'order_payout' : row.status === 'lost' ? 'order_loss' : 'order_refund';
  return { kind, userId: row.user_id, ref: `settle:${row.id}`, legs };
}

/**
 * The system message of a closed real order (its result stays in the user's messages after the
 * app was closed). Practice orders move play money and get none: their result shows on screen.
 */
export function resultMessage(row: repo.OrderRow) {
  return {
    userId: row.user_id,
    kind: `order_${row.status as 'won' | 'lost' | 'draw' | 'void'}` as const,
    params: {
      ref: String(row.id),
      product: row.product_id,
      amount: row.amount,
      payout: row.payout ?? 0,
      ...(row.void_reason ? { reason: row.void_reason } : {}),
    },
  };
}
