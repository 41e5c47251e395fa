import type { TradeMode } from '@shared/orders';
import type { AccountSummary } from '@shared/wallet';
import type { Queryable } from '@infra/db';
import type { UserEvents } from '@server/platform/user-events';
import { userBalances } from '../ledger/ledger';
import type { OrderFigures } from '../orders/order-figures';
import type { IdentityChecks } from '../kyc/identity';
import { dayStart } from '@server/platform/clock';
import { creditScoreOf } from './wallet.repo';
import type { PracticeService } from './practice';

/** Where "today" starts: the platform day of savings and limits (platform/clock.ts). */
export interface PlatformDay {
  /** PLATFORM_UTC_OFFSET_MINUTES. */
  offsetMinutes: number;
  /**
   * Epoch ms. The wall clock, never the test clock: orders are settled at the database's real
   * time, so "today" must be measured on the same clock.
   */
  now: () => number;
}

/**
 * Account P&L per mode: over settled orders, the sum of (payout − stake), in total and for orders
 * settled since 00:00 of the current platform day (PLATFORM_UTC_OFFSET_MINUTES).
 */
async function profitAndLoss(
  orders: Pick<OrderFigures, 'profitAndLoss'>,
  userId: number,
  day: PlatformDay,
): Promise<Record<TradeMode, { pnlTotal: number; pnlToday: number }>> {
  const since = new Date(dayStart(day.now(), day.offsetMinutes));
  const pnl = await orders.profitAndLoss(userId, since);
  return {
    real: { pnlTotal: pnl.real.total, pnlToday: pnl.real.today },
    practice: { pnlTotal: pnl.practice.total, pnlToday: pnl.practice.today },
  };
}

/**
 * GET /api/account/summary, and the payload of the `balance` socket event. The real figures
 * (total assets, P&L) count real money only; the practice balance has figures of its own.
 */
async function accountSummary(
  d: SummarySources,
  userId: number,
  day: PlatformDay,
  practiceResetTo = 0,
): Promise<AccountSummary> {
  const [b, pnl, creditScore, verified] = await Promise.all([
    userBalances(d.db, userId),
    profitAndLoss(d.orders, userId, day),
    creditScoreOf(d.db, userId),
    d.identity.verified(userId),
  ]);
  const savings = b.savings_pending + b.savings_confirmed;
  return {
    available: b.available,
    inOrders: b.in_orders,
    withdrawHold: b.withdraw_hold,
    savings,
    totalAssets: b.available + b.in_orders + savings + b.withdraw_hold,
    ...pnl.real,
    creditScore,
    verified,
    practice: {
      available: b.practice_available,
      inOrders: b.practice_in_orders,
      ...pnl.practice,
      resetTo: practiceResetTo,
    },
  };
}

/** Where a summary's figures come from: the ledger, and the orders and kyc modules' readers. */
interface SummarySources {
  db: Queryable;
  orders: Pick<OrderFigures, 'profitAndLoss'>;
  identity: Pick<IdentityChecks, 'verified'>;
}

/**
 * The account summary of one process, bound to its platform day: every reader and every
 * `balance` event goes through it, so none can count "today" from another midnight.
 */
export function createAccountSummaries({
  db,
  orders,
  identity,
  userEvents,
  offsetMinutes,
  now = Date.now,
  practice,
}: SummarySources & {
  userEvents: UserEvents;
  offsetMinutes: number;
  now?: () => number;
  /** Opens the practice balance on the first summary (a newcomer sees it at once). */
  practice?: Pick<PracticeService, 'ensureOpened' | 'balance'>;
}) {
  const day: PlatformDay = { offsetMinutes, now };
  const of = async (userId: number) => {
    await practice?.ensureOpened(userId);
    return accountSummary({ db, orders, identity }, userId, day, practice?.balance ?? 0);
  };
  return {
    of,
    /**
     * Tells the user's open sockets their new figures; called after a change commits. Best
     * effort, like the events themselves: a failure here must not turn a committed change into
     * an error, and the client reads the summary again when it reconnects.
     */
    async publish(userId: number): Promise<void> {
      try {
        userEvents.emit(userId, 'balance', await of(userId));
      } catch {
        // Nothing to undo: the change is committed, and the next summary read shows it.
      }
    },
  };
}

export type AccountSummaries = ReturnType<typeof createAccountSummaries>;
