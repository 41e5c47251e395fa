import {
  savingsLimits,
  type SavingsOverview,
  type SavingsRecord,
  type SavingsTransferBody,
} from '@shared/savings/model';
import type { Page } from '@shared/wallet/model';
import type { Clock } from '@server/platform/clock';
import type { Db, Queryable } from '@infra/db';
import { badRequest, conflict } from '@server/platform/http/errors';
import { idempotent, type Answer } from '@server/platform/idempotency';
import { toPage, type PageRequest } from '@server/platform/paging';
import { transfer, userBalances, type Leg } from '../ledger/ledger';
import { applyCutoffs } from './savings.cutoff';
import { addDays, platformDay, type SavingsPolicy } from './savings.policy';
import { presentSavingsRecord } from './savings.presenters';
import * as repo from './savings.repo';

export interface SavingsDeps {
  db: Db;
  /** The platform clock: real time, or the movable test clock (TEST_CLOCK=1). */
  clock: Clock;
  policy: SavingsPolicy;
  /** Called after a commit that changed users' balances (sends the `balance` event). */
  balancesChanged: (userIds: number[]) => void;
}

type Direction = 'in' | 'out';

/**
 * The savings balance (DECISIONS.md, Savings): transfers in and out with daily limits, the
 * overview and the records. Every movement of a user first locks their savings row and applies
 * any cut-off the daily job has not reached yet, so a day's transfers never mix with the day
 * before, whichever runs first.
 */
export function createSavingsService(d: SavingsDeps) {
  const { db, clock, policy } = d;
  const limitOf = (direction: Direction) => (direction === 'in' ? policy.dailyIn : policy.dailyOut);

  /** Applies the user's cut-offs due before `today`, under the lock the caller holds. */
  const catchUpLocked = async (tx: Queryable, account: repo.DueAccount, today: string) =>
    applyCutoffs(tx, [account], addDays(today, -1), policy);

  /** Brings one user up to date if the job has not yet; true when balances moved. */
  const catchUp = async (userId: number, today: string): Promise<boolean> => {
    const next = await repo.nextDayOf(db, userId);
    if (next === null || next >= today) return false;
    const { changed } = await db.transaction(async (tx) => {
      const account = await repo.lockAccount(tx, userId);
      return account ? catchUpLocked(tx, account, today) : { changed: [] };
    });
    if (changed.length) d.balancesChanged(changed);
    return changed.length > 0;
  };

  const move = async (
    direction: Direction,
    userId: number,
    body: SavingsTransferBody,
    idempotencyKey: string | undefined,
  ): Promise<Answer<SavingsRecord>> => {
    const { amount } = body;
    if (amount < savingsLimits.min || amount > savingsLimits.max)
      throw badRequest(
        'AMOUNT_OUT_OF_RANGE',
        `Amount must be between ${savingsLimits.min} and ${savingsLimits.max}`,
        'amount',
      );
    const answer = await idempotent(
      db,
      { userId, key: idempotencyKey, request: { direction, amount } },
      async (tx) => {
        // The day is read inside the attempt: a retried transaction may land after a cut-off.
        const now = clock.now();
        const today = platformDay(now, policy);
        if (direction === 'in') await repo.openAccount(tx, userId, today);
        const account = await repo.lockAccount(tx, userId);
        if (!account) throw conflict('INSUFFICIENT_BALANCE', 'Nothing in savings', 'amount');
        await catchUpLocked(tx, account, today);
        if ((await repo.countOfDay(tx, userId, today, direction)) >= limitOf(direction))
          throw conflict('DAILY_LIMIT_REACHED', `At most ${limitOf(direction)} a day`);
        const available = { user: userId, kind: 'available' } as const;
        let legs: Leg[];
        if (direction === 'in') {
          legs = [
            { account: available, amount: -amount },
            { account: { user: userId, kind: 'savings_pending' }, amount },
          ];
        } else {
          // Pending shares first, then confirmed (DECISIONS.md).
          const b = await userBalances(tx, userId);
          if (amount > b.savings_pending + b.savings_confirmed)
            throw conflict('INSUFFICIENT_BALANCE', 'Not that much in savings', 'amount');
          const fromPending = Math.min(amount, b.savings_pending);
          legs = [
            { account: { user: userId, kind: 'savings_pending' }, amount: -fromPending },
            { account: { user: userId, kind: 'savings_confirmed' }, amount: fromPending - amount },
            { account: available, amount },
          ].filter((l) => l.amount !== 0) as Leg[];
        }
        const moved = await transfer(tx, {
          kind: direction === 'in' ? 'savings_in' : 'savings_out',
          userId,
          legs,
        });
        const [row] = await repo.insertRecords(tx, [
          { userId, kind: direction, amount, day: today, atMs: now, transferId: moved.transferId },
        ]);
        return { status: 201, body: presentSavingsRecord(row!) };
      },
    );
    if (!answer.replayed) d.balancesChanged([userId]);
    return answer;
  };

  return {
    /** POST /api/savings/in: available → pending shares. */
    transferIn: (userId: number, body: SavingsTransferBody, key?: string) =>
      move('in', userId, body, key),
    /** POST /api/savings/out: pending, then confirmed shares → available. */
    transferOut: (userId: number, body: SavingsTransferBody, key?: string) =>
      move('out', userId, body, key),

    /** GET /api/savings: the figures as of the platform clock's now. */
    async overview(userId: number): Promise<SavingsOverview> {
      const today = platformDay(clock.now(), policy);
      await catchUp(userId, today);
      const [b, income, counts] = await Promise.all([
        userBalances(db, userId),
        repo.incomeOf(db, userId, addDays(today, -1)),
        repo.countsOfDay(db, userId, today),
      ]);
      return {
        total: b.savings_pending + b.savings_confirmed,
        confirmed: b.savings_confirmed,
        pending: b.savings_pending,
        yesterdayIncome: income.day,
        totalIncome: income.total,
        annualRate: policy.annualRate,
        inRemainingToday: Math.max(0, policy.dailyIn - counts.in),
        outRemainingToday: Math.max(0, policy.dailyOut - counts.out),
      };
    },

    /** GET /api/savings/records: transfers in and out and income, newest first. */
    async records(userId: number, q: PageRequest): Promise<Page<SavingsRecord>> {
      await catchUp(userId, platformDay(clock.now(), policy));
      return toPage(await repo.recordsOfUser(db, userId, q), q.limit, presentSavingsRecord);
    },
  };
}

export type SavingsService = ReturnType<typeof createSavingsService>;
