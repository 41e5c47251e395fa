import type { AccountSummary } from '@shared/wallet/model';
import type { Queryable } from '@infra/db';
import type { UserEvents } from '@server/platform/user-events';
import { balancesOf } from '../ledger/ledger';
import type { OrderFigures } from '../orders/order-figures';
import type { IdentityChecks } from '../kyc/identity';
import { dayStart } from '@server/platform/clock';
import { creditScores } from './wallet.repo';
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
 * GET /api/account/summary, and the payload of the `balance` socket event, for several users in
 * four queries whatever their number. The real figures (total assets, P&L) count real money
 * only; the practice balance has figures of its own. P&L per mode is the sum of (payout − stake)
 * over settled orders, in total and since 00:00 of the platform day (PLATFORM_UTC_OFFSET_MINUTES).
 */
async function accountSummaries(
  d: SummarySources,
  userIds: readonly number[],
  day: PlatformDay,
  practiceResetTo = 0,
): Promise<Map<number, AccountSummary>> {
  const since = new Date(dayStart(day.now(), day.offsetMinutes));
  const [balances, pnl, scores, verified] = await Promise.all([
    balancesOf(d.db, userIds),
    d.orders.profitAndLoss(userIds, since),
    creditScores(d.db, userIds),
    d.identity.verifiedAmong(userIds),
  ]);
  return new Map(
    userIds.map((id) => {
      const b = balances.get(id)!;
      const p = pnl.get(id)!;
      const savings = b.savings_pending + b.savings_confirmed;
      const summary: AccountSummary = {
        available: b.available,
        inOrders: b.in_orders,
        withdrawHold: b.withdraw_hold,
        savings,
        totalAssets: b.available + b.in_orders + savings + b.withdraw_hold,
        pnlTotal: p.real.total,
        pnlToday: p.real.today,
        creditScore: scores.get(id)!,
        verified: verified.has(id),
        practice: {
          available: b.practice_available,
          inOrders: b.practice_in_orders,
          pnlTotal: p.practice.total,
          pnlToday: p.practice.today,
          resetTo: practiceResetTo,
        },
      };
      return [id, summary];
    }),
  );
}

/** Where a summary's figures come from: the ledger, and the orders and kyc modules' readers. */
interface SummarySources {
  db: Queryable;
  orders: Pick<OrderFigures, 'profitAndLoss'>;
  identity: Pick<IdentityChecks, 'verifiedAmong'>;
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
  const ofMany = async (userIds: readonly number[]) => {
    for (const id of userIds) await practice?.ensureOpened(id);
    return accountSummaries({ db, orders, identity }, userIds, day, practice?.balance ?? 0);
  };
  // Users whose `balance` event is due. While one read is under way, changes pile up here and
  // the next read takes them all: at a handful of changes a second each goes out at once; at
  // thousands a second (placements, a settlement batch) they share a few reads.
  let due = new Set<number>();
  let reading: Promise<void> | null = null;
  const drain = async () => {
    while (due.size) {
      const ids = [...due];
      due = new Set();
      try {
        for (const [id, summary] of await ofMany(ids)) userEvents.emit(id, 'balance', summary);
      } catch {
        // Nothing to undo: the changes are committed, and the next summary read shows them.
      }
    }
    reading = null;
  };
  return {
    of: async (userId: number) => (await ofMany([userId])).get(userId)!,
    /**
     * Tells the user's open sockets their new figures; called after a change commits. Best
     * effort, like the events themselves: a failure here must not turn a committed change into
     * an error, and the client reads the summary again when it reconnects. Resolves when the
     * event has gone out (or failed).
     */
    async publish(userId: number): Promise<void> {
      due.add(userId);
      reading ??= drain();
      await reading;
    },
  };
}

export type AccountSummaries = ReturnType<typeof createAccountSummaries>;
