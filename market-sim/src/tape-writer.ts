import type { Db, Queryable } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { PeriodStart } from './fairness';
import { recordPeriodStarts } from './fairness.repo';
import {
  advanceWatermark,
  insertTicks,
  upsertCandles,
  type ProductCandle,
  type TapeRow,
} from './tape.repo';
import { FencedOut } from './lease';

/** Where a committed period's ticks start from, recorded with its first tick. */
export interface PeriodStartRecord {
  productId: string;
  periodStart: number;
  start: PeriodStart;
}

export interface TapeWriter {
  addTick(row: TapeRow): void;
  /** The latest state of a product's current 1-minute candle (replaces earlier states). */
  setCandle(candle: ProductCandle): void;
  /** A period's start, written in the same transaction as the ticks buffered with it. */
  addPeriodStart(record: PeriodStartRecord): void;
  /** Writes what is buffered in one transaction; concurrent calls share one flush. */
  flush(): Promise<void>;
  pending(): number;
  /** When the last write succeeded (epoch ms), null before the first one. */
  lastWriteMs(): number | null;
  stop(): Promise<void>;
}

/**
 * Buffers the tape and writes it every `flushMs` in one transaction, so publishing never waits
 * on the database. When the database is away the buffer is kept (up to `maxBuffer` ticks, oldest
 * dropped first, with a warning) and written when it is back.
 */
export function createTapeWriter(
  db: Db,
  {
    flushMs = 250,
    maxBuffer = 500_000,
    log,
    fence,
    through: throughOf,
  }: {
    flushMs?: number;
    maxBuffer?: number;
    log?: Logger;
    /** Run first in each write; throws `FencedOut` when this simulator lost its lease. */
    fence?: (tx: Queryable) => Promise<void>;
    /**
     * The time (epoch ms) through which every tick has been handed to the writer, and after
     * which only later ticks will come; null while not known (a feed still backfilling). Read
     * when a write takes its batch, and written with it as the tape's watermark.
     */
    through?: () => number | null;
  } = {},
): TapeWriter {
  let ticks: TapeRow[] = [];
  let candles = new Map<string, ProductCandle>();
  let starts: PeriodStartRecord[] = [];
  let inFlight: Promise<void> | null = null;
  let dropped = 0;
  let lastWriteMs: number | null = null;
  let watermark = 0;

  const writeOnce = async () => {
    // Taken with the batch: every tick handed over until now is in it (the feed emits ticks
    // synchronously, stamped with its clock), so the tape is complete through this time once
    // the batch is written.
    const through = throughOf?.() ?? null;
    const advanceTo = through !== null && through > watermark ? through : null;
    if (!ticks.length && !candles.size && !starts.length && advanceTo === null) {
      // Nothing to write (a closed market): the tape is as current as it can be.
      lastWriteMs = Date.now();
      return;
    }
    const batch = ticks;
    const batchCandles = candles;
    const batchStarts = starts;
    ticks = [];
    candles = new Map();
    starts = [];
    try {
      await db.transaction(async (tx) => {
        await fence?.(tx);
        await recordPeriodStarts(tx, batchStarts);
        for (let i = 0; i < batch.length; i += 5000)
          await insertTicks(tx, batch.slice(i, i + 5000));
        await upsertCandles(tx, [...batchCandles.values()]);
        if (advanceTo !== null) await advanceWatermark(tx, advanceTo);
      });
      if (advanceTo !== null) watermark = advanceTo;
      lastWriteMs = Date.now();
    } catch (err) {
      if (err instanceof FencedOut) {
        // Another simulator leads now: what this one buffered must never reach the tape.
        log?.error(
          { dropped: batch.length, err: err.message },
          'tape write refused: not the leader',
        );
        return;
      }
      // Put the batch back in front; newer candle states win over the failed ones.
      ticks = batch.concat(ticks);
      starts = batchStarts.concat(starts);
      for (const [k, c] of batchCandles) if (!candles.has(k)) candles.set(k, c);
      if (ticks.length > maxBuffer) {
        dropped += ticks.length - maxBuffer;
        ticks = ticks.slice(ticks.length - maxBuffer);
      }
      log?.warn(
        { err: (err as Error).message, buffered: ticks.length, dropped },
        'tape write failed; will retry',
      );
    }
  };

  const flush = (): Promise<void> => {
    if (inFlight)
      return inFlight.then(() =>
        ticks.length || candles.size || starts.length ? flush() : undefined,
      );
    inFlight = writeOnce().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    addTick: (row) => void ticks.push(row),
    setCandle: (c) => void candles.set(`${c.productId}:${c.t}`, c),
    addPeriodStart: (r) => void starts.push(r),
    flush,
    pending: () => ticks.length,
    lastWriteMs: () => lastWriteMs,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
