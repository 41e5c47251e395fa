import type { Db, Queryable } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { PeriodStart } from './fairness';
import { recordPeriodStarts } from './fairness.repo';
import {
  advanceWatermark,
  HOUR_MS,
  insertTicks,
  rollUpHours,
  rollUpHoursBefore,
  upsertCandles,
  type ProductCandle,
  type ProductHour,
  type TapeRow,
} from './tape.repo';
import { FencedOut } from './lease';

/** Where a committed period's ticks start from, recorded with its first tick. */
export interface PeriodStartRecord {
  productId: string;
  periodStart: number;
  start: PeriodStart;
}

/** The tape writer's figures for metrics: ticks waiting to be written, when it last wrote. */
export interface TapeFigures {
  buffered: number;
  lastWriteMs: number | null;
}

export interface TapeWriter {
  addTick(row: TapeRow): void;
  /**
   * The latest state of a product's current 1-minute candle (replaces earlier states). Its hour
   * is rolled up into `candles_1h` once it is over.
   */
  setCandle(candle: ProductCandle): void;
  /**
   * Rolls up a product's hour (its start) once it is over, though no minute of it may come through
   * this writer: the hour a feed starts in may hold minutes of a simulator before it, or of the
   * backfill, and the market may close before the next tick.
   */
  rollUpWhenOver(hour: ProductHour): void;
  /**
   * Rolls up, in the next write, every hour of these products before `before` (an hour start)
   * from the newest one stored (`rollUpHoursBefore`): a feed's start, for the hours over before
   * it. Hours this writer rolls up later commit with it or after it, never before it.
   */
  rollUpBefore(productIds: readonly string[], before: number): void;
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
 * Buffers the tape and writes it every `flushMs` in one transaction; what a write committed is
 * handed to `onWritten` (the feed publishes it then, never before). When the database is away the buffer is kept (up to `maxBuffer` ticks, oldest
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
    onWritten,
  }: {
    flushMs?: number;
    maxBuffer?: number;
    log?: Logger;
    /** Run first in each write; throws `FencedOut` when this simulator lost its lease. */
    fence?: (tx: Queryable) => Promise<void>;
    /**
     * The time (epoch ms) through which every tick has been handed to the writer, and after
     * which only later ticks will come; null while not known (a feed still backfilling). Read
     * when a write takes its batch, and written with it as the tape's watermark. An hour is over
     * once this reaches its end: the write rolls it up.
     */
    through?: () => number | null;
    /**
     * Told of each batch's ticks, in order, once their write has committed (under the fence):
     * what may now be published. A batch that is fenced out is never told.
     */
    onWritten?: (ticks: readonly TapeRow[]) => void;
  } = {},
): TapeWriter {
  let ticks: TapeRow[] = [];
  let candles = new Map<string, ProductCandle>();
  let starts: PeriodStartRecord[] = [];
  /** Hours to roll up once over, by `${productId}:${t}`; kept until a write has rolled them up. */
  const hours = new Map<string, ProductHour>();
  let catchUp: { productIds: readonly string[]; before: number } | null = null;
  const watchHour = (productId: string, ts: number) => {
    const t = ts - (ts % HOUR_MS);
    hours.set(`${productId}:${t}`, { productId, t });
  };
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
    // Over: every tick up to the hour's end has been handed over, so its minutes are in the tape
    // or in this batch. Rolled up after the batch's candles, in its transaction.
    const over =
      through === null ? [] : [...hours.values()].filter((h) => h.t + HOUR_MS <= through + 1);
    if (
      !ticks.length &&
      !candles.size &&
      !starts.length &&
      advanceTo === null &&
      !over.length &&
      !catchUp
    ) {
      // Nothing to write (a closed market): the tape is as current as it can be.
      lastWriteMs = Date.now();
      return;
    }
    const batch = ticks;
    const batchCandles = candles;
    const batchStarts = starts;
    const batchCatchUp = catchUp;
    let caughtUp = 0;
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
        if (batchCatchUp)
          caughtUp = await rollUpHoursBefore(tx, batchCatchUp.productIds, batchCatchUp.before);
        await rollUpHours(tx, over);
        if (advanceTo !== null) await advanceWatermark(tx, advanceTo);
      });
      if (advanceTo !== null) watermark = advanceTo;
      for (const h of over) hours.delete(`${h.productId}:${h.t}`);
      if (batchCatchUp) {
        if (catchUp === batchCatchUp) catchUp = null;
        if (caughtUp) log?.info({ hours: caughtUp }, 'rolled up hourly candles');
      }
      lastWriteMs = Date.now();
      if (batch.length) onWritten?.(batch);
    } catch (err) {
      if (err instanceof FencedOut) {
        // Another simulator leads now: what this one buffered must never reach the tape. Nor
        // its roll-ups: the leader rolls up the hours that are over when it starts.
        hours.clear();
        catchUp = null;
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
        ticks.length || candles.size || starts.length || catchUp ? flush() : undefined,
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
    setCandle(c) {
      candles.set(`${c.productId}:${c.t}`, c);
      watchHour(c.productId, c.t);
    },
    rollUpWhenOver: (h) => watchHour(h.productId, h.t),
    rollUpBefore: (productIds, before) => void (catchUp = { productIds, before }),
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
