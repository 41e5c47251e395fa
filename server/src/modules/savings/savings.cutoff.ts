import type { Queryable } from '@infra/db';
import { transferMany, type TransferSpec } from '../ledger/ledger';
import { addDays, cutoffOf, dailyIncome, type SavingsPolicy } from './savings.policy';
import * as repo from './savings.repo';

export interface CutoffResult {
  /** Users whose balances moved (for the `balance` event). */
  changed: number[];
  /** (user, day) cut-offs applied with a movement. */
  days: number;
}

/**
 * Applies every due cut-off of the given (already locked) users, day by day in order, up to and
 * including the cut-off that ends `throughDay`. At each cut-off pending shares become confirmed,
 * then one day's income on the confirmed shares (those just confirmed included) is credited from
 * house_interest to confirmed shares (DECISIONS.md, Savings). Everything is written in the
 * caller's transaction in a fixed number of statements: the ledger transfers, the day rows (whose
 * primary key refuses a second payment of a day), the income records and the users' next day.
 * A user with no shares has nothing to apply on any later day either, and just moves on.
 */
export async function applyCutoffs(
  tx: Queryable,
  accounts: readonly repo.DueAccount[],
  throughDay: string,
  policy: SavingsPolicy,
): Promise<CutoffResult> {
  const due = accounts.filter((a) => a.nextDay <= throughDay);
  if (!due.length) return { changed: [], days: 0 };
  const shares = await repo.sharesOf(
    tx,
    due.map((a) => a.userId),
  );
  const days: repo.DayRow[] = [];
  const transfers: TransferSpec[] = [];
  const incomes: { transfer: number; userId: number; day: string; amount: number }[] = [];
  for (const { userId, nextDay } of due) {
    let { pending, confirmed } = shares.get(userId)!;
    const pendingAcct = { user: userId, kind: 'savings_pending' } as const;
    const confirmedAcct = { user: userId, kind: 'savings_confirmed' } as const;
    for (let day = nextDay; day <= throughDay && pending + confirmed > 0; day = addDays(day, 1)) {
      const moved = pending;
      confirmed += moved;
      pending = 0;
      const income = dailyIncome(confirmed, policy.rate);
      days.push({ userId, day, confirmedAmount: moved, base: confirmed, income });
      if (moved > 0)
        transfers.push({
          kind: 'savings_confirm',
          userId,
          ref: `savings-confirm:${userId}:${day}`,
          legs: [
            { account: pendingAcct, amount: -moved },
            { account: confirmedAcct, amount: moved },
          ],
        });
      if (income > 0) {
        incomes.push({ transfer: transfers.length, userId, day, amount: income });
        transfers.push({
          kind: 'savings_income',
          userId,
          ref: `savings-income:${userId}:${day}`,
          legs: [
            { account: { house: 'house_interest' }, amount: -income },
            { account: confirmedAcct, amount: income },
          ],
        });
      }
      confirmed += income;
    }
  }
  const results = await transferMany(tx, transfers);
  await repo.insertDays(tx, days);
  await repo.insertRecords(
    tx,
    incomes.map((i) => ({
      userId: i.userId,
      kind: 'income' as const,
      amount: i.amount,
      day: i.day,
      atMs: cutoffOf(i.day, policy),
      transferId: results[i.transfer]!.transferId,
    })),
  );
  await repo.setNextDay(
    tx,
    due.map((a) => a.userId),
    addDays(throughDay, 1),
  );
  return { changed: [...new Set(days.map((d) => d.userId))], days: days.length };
}
