import type { AccountSummary } from '@shared/wallet';
import type { Queryable } from '@server/platform/db';
import type { UserEvents } from '@server/platform/user-events';
import { latestKycSubmission } from '../kyc/kyc.repo';
import { userBalances } from './ledger';
import { profitAndLoss as ordersProfitAndLoss } from '../orders/orders.repo';
import { dayStart } from '@server/platform/clock';
import { creditScoreOf } from './wallet.repo';

/**
 * Account P&L: over settled orders, the sum of (payout − stake), in total and for orders settled
 * today (platform time zone).
 */
export async function profitAndLoss(
  db: Queryable,
  userId: number,
  now = Date.now(),
  offsetMinutes = 0,
): Promise<{ pnlTotal: number; pnlToday: number }> {
  const pnl = await ordersProfitAndLoss(db, userId, new Date(dayStart(now, offsetMinutes)));
  return { pnlTotal: pnl.total, pnlToday: pnl.today };
}

/** GET /api/account/summary, and the payload of the `balance` socket event. */
export async function accountSummary(db: Queryable, userId: number): Promise<AccountSummary> {
  const [b, pnl, creditScore, kyc] = await Promise.all([
    userBalances(db, userId),
    profitAndLoss(db, userId),
    creditScoreOf(db, userId),
    latestKycSubmission(db, userId),
  ]);
  const savings = b.savings_pending + b.savings_confirmed;
  return {
    available: b.available,
    inOrders: b.in_orders,
    withdrawHold: b.withdraw_hold,
    savings,
    totalAssets: b.available + b.in_orders + savings + b.withdraw_hold,
    ...pnl,
    creditScore,
    verified: kyc?.status === 'verified',
  };
}

/**
 * Tells the user's open sockets their new figures; called after a change commits. Best effort,
 * like the events themselves: a failure here must not turn a committed change into an error, and
 * the client reads the summary again when it reconnects.
 */
export async function publishSummary(
  db: Queryable,
  userEvents: UserEvents,
  userId: number,
): Promise<void> {
  try {
    userEvents.emit(userId, 'balance', await accountSummary(db, userId));
  } catch {
    // Nothing to undo: the change is committed, and the next summary read shows it.
  }
}
