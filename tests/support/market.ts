import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import type { Bus } from '@infra/bus';
import type { Db } from '@infra/db';
import { defaultCatalogue } from '@sim/catalogue';
import { startFeed, type FeedOptions } from '@sim/feed';
import { createRng } from '@sim/rng';
import type { ProductCandle } from '@sim/tape.repo';

/** Wednesday 2026-11-18 15:00 UTC: every calendar is open (US500 since 13:30). */
export const WEDNESDAY_AFTERNOON = Date.UTC(2026, 10, 18, 15, 0, 0);
/** Saturday 2026-11-21 12:00 UTC: only crypto trades. */
export const SATURDAY_NOON = Date.UTC(2026, 10, 21, 12, 0, 0);

/** A clock that runs at real speed from `start`. */
export const clockFrom = (start: number) => {
  const offset = Date.now() - start;
  return () => Date.now() - offset;
};

/** A live feed's options in a test: every product, seed 11, 20 ticks a second, no backfill. */
export const feedTestOptions = (db: Db, bus: Bus, o: Partial<FeedOptions> = {}): FeedOptions => ({
  db,
  bus,
  catalogue: defaultCatalogue,
  seed: 11,
  randomness: { kind: 'seeded' },
  ticksPerSecond: 20,
  backfillHours: 0,
  retentionHours: 48,
  ...o,
});

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

/**
 * Made-up candles of a product at the given bucket starts (oldest first): a seeded random walk
 * in price units, each candle consistent (l ≤ o, c ≤ h; `a` = Σ price × qty of `n` trades of
 * `v` lots in all), for tests of what is rolled up from stored candles.
 */
export function madeUpCandles(
  productId: string,
  times: readonly number[],
  seed = 1,
): ProductCandle[] {
  const rng = createRng(seed);
  let price = 1_000_000;
  return times.map((t) => {
    const o = price;
    price = Math.max(1_000, price + Math.round((rng.next() - 0.5) * 2_000));
    const c = price;
    const h = Math.max(o, c) + Math.floor(rng.next() * 500);
    const l = Math.min(o, c) - Math.floor(rng.next() * 500);
    const n = 1 + Math.floor(rng.next() * 120);
    const v = n * (1 + Math.floor(rng.next() * 50));
    return { productId, t, o, h, l, c, v, a: BigInt(v) * BigInt(Math.round((h + l) / 2)), n };
  });
}
