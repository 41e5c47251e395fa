import type { TradeMode } from '@shared/orders/model';
import type { Queryable } from '@infra/db';
import * as repo from './orders.repo';

/**
 * What other modules read of a user's orders (the account summary's P&L, the practice reset's
 * guard), without the placement service and its market: the settlement worker has no market.
 */
export function orderFigures(db: Queryable) {
  return {
    /** Σ(payout − stake) per user and mode over settled orders: all, and those settled since `since`. */
    profitAndLoss: (userIds: readonly number[], since: Date) =>
      repo.profitAndLoss(db, userIds, since),
    /** Whether the user has an open order of this mode; `tx` reads inside the caller's transaction. */
    hasOpenOrders: (userId: number, mode: TradeMode, tx: Queryable = db) =>
      repo.hasOpenOrders(tx, userId, mode),
  };
}

export type OrderFigures = ReturnType<typeof orderFigures>;
