import type { Clock } from '@server/platform/clock';
import type { Db } from '@infra/db';
import type { Logger } from '@infra/logger';
import { periodicJob } from '@server/platform/periodic';
import { applyCutoffs } from './savings.cutoff';
import { addDays, platformDay, type SavingsPolicy } from './savings.policy';
import * as repo from './savings.repo';

export interface SavingsJobDeps {
  db: Db;
  clock: Clock;
  policy: SavingsPolicy;
  balancesChanged: (userIds: number[]) => void;
  log?: Logger;
  /** Users per transaction. */
  batchSize?: number;
  /** Test seam: runs inside each batch's transaction, after its writes; a throw rolls it back. */
  beforeCommit?: (userIds: number[]) => void | Promise<void>;
}

export interface SavingsJobRun {
  /** Users brought up to date. */
  users: number;
  /** (user, day) cut-offs applied with something to move. */
  days: number;
}

/**
 * The daily job: applies every due cut-off (00:00 platform time) of every user, each day in
 * order, catching up all days missed while no api ran. Every api process runs it on a timer;
 * exactly once per user and day holds whichever runs first, because a batch claims its users'
 * savings rows FOR UPDATE SKIP LOCKED and writes their days (primary key (user_id, day)), ledger
 * transfers and next day in one transaction. A run killed half way has committed whole batches
 * only; the next run, here or elsewhere, picks up the rest.
 */
export function createSavingsJob(d: SavingsJobDeps) {
  const batchSize = d.batchSize ?? 100;

  const runNow = async (): Promise<SavingsJobRun> => {
    const throughDay = addDays(platformDay(d.clock.now(), d.policy), -1);
    const total: SavingsJobRun = { users: 0, days: 0 };
    for (;;) {
      const batch = await d.db.transaction(async (tx) => {
        const due = await repo.claimDue(tx, throughDay, batchSize);
        if (!due.length) return null;
        const result = await applyCutoffs(tx, due, throughDay, d.policy);
        await d.beforeCommit?.(due.map((a) => a.userId));
        return { users: due.length, ...result };
      });
      if (!batch) return total;
      total.users += batch.users;
      total.days += batch.days;
      if (batch.changed.length) d.balancesChanged(batch.changed);
    }
  };

  return periodicJob({
    run: runNow,
    defaultEveryMs: 60_000,
    done: ({ users, days }) => {
      if (users) d.log?.info({ users, days }, 'savings cut-offs applied');
    },
    failed: (err) => d.log?.error({ err }, 'savings job failed; will retry'),
  });
}
