import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import type { Db } from '@infra/db';
import { defaultCatalogue } from '@sim/catalogue';
import { startFeed } from '@sim/feed';

/** Wednesday 2026-11-18 15:00 UTC: every calendar is open (US500 since 13:30). */
export const WEDNESDAY_AFTERNOON = Date.UTC(2026, 10, 18, 15, 0, 0);
/** Saturday 2026-11-21 12:00 UTC: only crypto trades. */
export const SATURDAY_NOON = Date.UTC(2026, 10, 21, 12, 0, 0);

/**
 * Records `hours` of simulated history ending at `at` into `db` with a stopped clock (so no live
 * ticks follow), exactly as a first start of the simulator would.
 */
export async function seedTape(db: Db, { at = WEDNESDAY_AFTERNOON, hours = 2, seed = 7 } = {}) {
  const bus = createMemoryBus(createMemoryHub());
  const feed = await startFeed({
    db,
    bus,
    catalogue: defaultCatalogue,
    seed,
    randomness: { kind: 'seeded' },
    ticksPerSecond: 2,
    backfillHours: hours,
    retentionHours: 48,
    now: () => at,
  });
  const state = feed.state();
  await feed.stop();
  await bus.close();
  return state;
}
