import type { Config } from '@server/config';
import {
  startSettlementWorker,
  type SettledFacts,
  type WorkerDeps,
  type WorkerOptions,
} from '@server/modules/orders/settlement.worker';
import { countSettlementBacklog } from '@server/modules/orders/orders.repo';
import type { Metrics } from '@server/platform/metrics';
import type { lagWindow } from '@server/platform/process-reports';
import type { Db } from '@infra/db';
import { defaultCatalogue } from '@sim/index';
import { tradeModes, type OrderStatus, type VoidReason } from '@shared/orders/model';

const settledStatuses: OrderStatus[] = ['won', 'lost', 'draw', 'void'];
const voidReasons: VoidReason[] = ['FEED_STALE', 'NO_ENTRY_TICK'];

/**
 * What a settlement worker tells the metrics (and the dashboard's lag window) of each decided
 * order: its lag, its result per product and mode, and why it was void.
 */
export function settlementObservers(
  metrics: Pick<Metrics, 'settlementLag' | 'settled' | 'voided' | 'entryLag'>,
  lags: ReturnType<typeof lagWindow>,
): Pick<WorkerDeps, 'onSettled' | 'onEntry'> {
  // Every product's series from the start, at 0. A counter series that first appears at its
  // first increment hides that increment from increase() and rate(): a burst of voids after a
  // restart would be invisible to VoidRate.
  for (const { id: product } of defaultCatalogue)
    for (const mode of tradeModes) {
      for (const status of settledStatuses) metrics.settled.inc({ status, mode, product }, 0);
      for (const reason of voidReasons) metrics.voided.inc({ reason, product, mode }, 0);
    }
  const count = (o: SettledFacts) => {
    metrics.settled.inc({ status: o.status, mode: o.mode, product: o.productId });
    if (o.status === 'void')
      metrics.voided.inc({ reason: o.voidReason ?? 'unknown', product: o.productId, mode: o.mode });
  };
  return {
    onSettled(lagMs, order) {
      lags.add(lagMs);
      metrics.settlementLag.observe(lagMs / 1000);
      count(order);
    },
    onEntry(lagMs, outcome, order) {
      if (outcome === 'entered') metrics.entryLag.observe(lagMs / 1000);
      else count(order);
    },
  };
}

/**
 * A settlement worker wired the one way every process runs it (the api's and the worker role's):
 * the configured batch and feed delay, its decisions observed by the metrics and the lag window,
 * and the orders it owes counted when scraped (on `backlogDb`, the worker's own connection
 * unless told otherwise).
 */
export function startObservedSettlement(
  config: Pick<Config, 'MAX_FEED_DELAY_MS' | 'SETTLE_BATCH_SIZE'>,
  deps: Pick<WorkerOptions, 'db' | 'orders' | 'userEvents' | 'balancesChanged' | 'log' | 'wakes'>,
  metrics: Pick<
    Metrics,
    'settlementLag' | 'settled' | 'voided' | 'entryLag' | 'watchSettlementBacklog'
  >,
  lags: ReturnType<typeof lagWindow>,
  backlogDb: Db = deps.db,
) {
  const worker = startSettlementWorker({
    ...deps,
    maxFeedDelayMs: config.MAX_FEED_DELAY_MS,
    batchSize: config.SETTLE_BATCH_SIZE,
    ...settlementObservers(metrics, lags),
  });
  metrics.watchSettlementBacklog(() => countSettlementBacklog(backlogDb));
  return worker;
}
