import type { Queryable } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { Metrics } from '@server/platform/metrics';
import { periodicJob } from '@server/platform/periodic';
import { checkLedger } from './ledger';

/**
 * The periodic ledger check of every api process (LEDGER_CHECK_MINUTES; 0 turns it off): runs
 * `checkLedger` (the same as `npm run ops -- ledger check`), exports its verdict as
 * `ledger_check_ok` and its time as `ledger_check_last_run_timestamp_seconds`, and logs an error
 * naming the problems when it finds any or cannot run. The check only reads, so several api
 * processes running it side by side do no harm.
 */
export function startLedgerCheckJob({
  db,
  everyMs,
  log,
  metrics,
  now = Date.now,
}: {
  db: Queryable;
  everyMs: number;
  log: Logger;
  metrics?: Pick<Metrics, 'ledgerCheckOk' | 'ledgerCheckLastRun'>;
  now?: () => number;
}) {
  const run = async (): Promise<boolean> => {
    let ok = false;
    try {
      const result = await checkLedger(db);
      ok = result.ok;
      if (ok) log.info('ledger check passed');
      else log.error({ problems: result.problems }, 'ledger check found problems');
    } catch (err) {
      log.error({ err: (err as Error).message }, 'ledger check could not run');
    }
    metrics?.ledgerCheckOk.set(ok ? 1 : 0);
    metrics?.ledgerCheckLastRun.set(Math.floor(now() / 1000));
    return ok;
  };
  const job = periodicJob({ run, defaultEveryMs: everyMs });
  return {
    /** Runs a first check soon after start, then every `everyMs`. */
    start(firstAfterMs = Math.min(everyMs, 60_000)) {
      if (everyMs > 0) job.start(everyMs, firstAfterMs);
    },
    runOnce: job.runOnce,
    stop: () => job.stop(),
  };
}
