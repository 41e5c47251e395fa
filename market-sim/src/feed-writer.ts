import type { Bus } from '@infra/bus';
import type { Tick } from '@shared/market/model';
import { bucketStart } from '@shared/aggregate';
import { unitsToPrice } from '@shared/price';
import { HOUR_MS, pruneTicks, type TapeRow } from './tape.repo';
import { createTapeWriter, type TapeWriter } from './tape-writer';
import { tickTime, type FeedClock } from './feed-clock';
import type { FeedOptions } from './feed-options';

/** What the feed writes and publishes: the tape (through its batching writer) and the bus. */

/**
 * How long one `tape-wanted` message keeps the writer at its full cadence: its senders repeat it
 * every second (server/src/platform/tape-demand.ts), so two may be lost before the writer rests.
 */
export const TAPE_WANTED_HOLD_MS = 3000;

export type Publish = (m: Parameters<Bus['publish']>[0]) => Promise<void>;

/**
 * Publishes on the bus, with one warning per outage (Redis away drops every publish), not one
 * per message.
 */
export function busPublisher(o: FeedOptions): Publish {
  let warnedAt = -Infinity;
  return (m) =>
    o.bus.publish(m).catch((err: unknown) => {
      if (Date.now() - warnedAt < 10_000) return;
      warnedAt = Date.now();
      o.log?.warn({ err: (err as Error).message }, 'bus publish failed');
    });
}

/**
 * The batching tape writer. Ticks are published once the write that holds them has committed
 * under the lease's fence (docs/FAIRNESS.md): every tick anyone sees is on the tape, and a
 * simulator that lost its lease, or cannot reach the database, shows nothing it could not record.
 */
export function feedTapeWriter(
  o: FeedOptions,
  clock: FeedClock,
  published: (tick: Tick) => void,
  makeTicks: (upTo: number) => void,
): TapeWriter {
  const specs = new Map(o.catalogue.map((spec) => [spec.id, spec]));
  return createTapeWriter(o.db, {
    log: o.log,
    flushMs: o.flushMs,
    rest: o.restFlushMs ? { flushMs: o.restFlushMs, holdMs: TAPE_WANTED_HOLD_MS } : undefined,
    // Each write makes the ticks due by now, then says the tape is complete through just before.
    through: () => {
      if (!clock.live || !clock.leading()) return null;
      const now = clock.now();
      makeTicks(now);
      return (clock.throughMs = Math.max(clock.throughMs, now - 1));
    },
    fence: o.lease ? (tx) => o.lease!.fence(tx) : undefined,
    fenceQuery: o.lease ? () => o.lease!.fenceQuery() : undefined,
    onWritten: (rows: readonly TapeRow[]) => {
      for (const row of rows) {
        const spec = specs.get(row.productId);
        if (!spec) continue;
        published({
          id: row.productId,
          seq: row.seq,
          ts: row.ts,
          price: unitsToPrice(row.price, spec.precision),
        });
      }
    },
  });
}
/**
 * The hourly candles (candles_1h): the hours over before now are rolled up in the writer's
 * first write, which runs now (the backfill's and the coarse history's, hours a simulator that
 * stopped mid-hour left; fenced like every write, and retried with the next while the database
 * is away); the hour the feed starts in, the writer rolls up once it is over, as it does every
 * hour it writes minutes of.
 */
export async function rollUpAtStart(o: FeedOptions, clock: FeedClock, writer: TapeWriter) {
  const startHour = bucketStart(tickTime(clock), HOUR_MS);
  writer.rollUpBefore(
    o.catalogue.map((s) => s.id),
    startHour,
  );
  for (const spec of o.catalogue) writer.rollUpWhenOver({ productId: spec.id, t: startHour });
  await writer.flush();
}
/** Drops ticks older than the retention from the tape; a failure waits for the next round. */
export async function pruneTape(o: FeedOptions, now: () => number) {
  try {
    const gone = await pruneTicks(o.db, now() - o.retentionHours * 3_600_000);
    if (gone) o.log?.info({ ticks: gone }, 'pruned old ticks');
  } catch (err) {
    o.log?.warn({ err: (err as Error).message }, 'prune failed');
  }
}
