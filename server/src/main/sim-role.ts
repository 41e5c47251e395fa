import type { Bus } from '@infra/bus';
import type { Db } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { Config } from '@server/config';
import type { Metrics } from '@server/platform/metrics';
import {
  defaultCatalogue,
  holdLease,
  startFeed,
  type Lease,
  type LeaseState,
  type TapeFigures,
} from '@sim/index';

/** What a simulator tells its process about itself (its metrics: `simReportsTo`). */
export interface SimReports {
  lease(state: LeaseState, epoch: number): void;
  tick(productId: string): void;
  /** The time between a tick and the one before it, while its product stayed open. */
  gap(productId: string, gapMs: number): void;
  tape(source: (() => TapeFigures) | null): void;
}

/** A simulator's reports as this process's metrics (`sim_leader`, `sim_ticks_total`, the tape). */
export function simReportsTo(
  metrics: Pick<Metrics, 'simLeader' | 'simLeaseEpoch' | 'simTicks' | 'simTickGaps' | 'watchTape'>,
): SimReports {
  const ticks = new Map(
    defaultCatalogue.map((p) => [p.id, metrics.simTicks.labels({ product: p.id })]),
  );
  // Every product's gap histogram from the start, at 0: a series that first appears with its
  // first gap hides that gap from increase(), and a standby's first gap is its takeover's.
  for (const p of defaultCatalogue) metrics.simTickGaps.zero({ product: p.id });
  return {
    lease(state, epoch) {
      metrics.simLeader.set(state === 'leader' ? 1 : 0);
      metrics.simLeaseEpoch.set(epoch);
    },
    tick: (productId) => ticks.get(productId)?.inc(),
    gap: (productId, gapMs) => metrics.simTickGaps.observe({ product: productId }, gapMs / 1000),
    tape: (source) => metrics.watchTape(source),
  };
}

/**
 * The simulator under its lease (market-sim/src/lease.ts): it leads when no other simulator on
 * the database does, and otherwise waits as a hot standby that takes over when the leader stops
 * renewing. `reports` hears which one leads, each tick and the tape writer's figures.
 */
export function startSim(
  config: Config,
  db: Db,
  bus: Bus,
  log: Logger,
  reports?: SimReports,
): Lease {
  const simLog = log.child({ part: 'sim' });
  return holdLease(
    {
      db,
      ttlMs: config.SIM_LEASE_MS,
      pollMs: Math.max(100, Math.floor(config.SIM_LEASE_MS / 6)),
      log: simLog,
      onChange: (state, epoch) => reports?.lease(state, epoch),
    },
    (lease) =>
      startFeed({
        db,
        bus,
        catalogue: defaultCatalogue,
        seed: config.SIM_SEED,
        randomness:
          config.SIM_RANDOMNESS === 'seeded'
            ? { kind: 'seeded' }
            : { kind: 'committed', periodMs: config.SIM_PERIOD_MINUTES * 60_000 },
        ticksPerSecond: config.SIM_TICKS_PER_SECOND,
        backfillHours: config.SIM_BACKFILL_HOURS,
        historyDays: config.SIM_HISTORY_DAYS,
        retentionHours: config.TICK_RETENTION_HOURS,
        flushMs: config.TAPE_FLUSH_MS,
        restFlushMs: config.TAPE_REST_FLUSH_MS,
        log: simLog,
        lease,
        onTick: reports ? (productId) => reports.tick(productId) : undefined,
        onGap: reports ? (productId, gapMs) => reports.gap(productId, gapMs) : undefined,
        onTape: reports ? (tape) => reports.tape(tape) : undefined,
      }),
  );
}
