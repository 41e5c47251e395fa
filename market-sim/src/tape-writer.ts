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
  writeTape,
  type ProductCandle,
  type ProductHour,
  type TapeRow,
} from './tape.repo';
import { FencedOut, type FenceQuery } from './lease';

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
  /**
   * Someone needs the tape current (`rest`): writes at `flushMs` for the next `rest.holdMs`, and
   * at once when the writer was resting.
   */
  wanted(): void;
  /** Writes what is buffered in one transaction; concurrent calls share one flush. */
  flush(): Promise<void>;
  pending(): number;
  /** When the last write succeeded (epoch ms), null before the first one. */
  lastWriteMs(): number | null;
  stop(): Promise<void>;
}

interface TapeWriterOptions {
  flushMs?: number;
  /**
   * The rest cadence: while nothing has called `wanted()` for `holdMs`, write every `flushMs` of
   * these instead (DECISIONS 63). Without it, always every `flushMs` above.
   */
  rest?: { flushMs: number; holdMs: number };
  maxBuffer?: number;
  log?: Logger;
  /** Run first in each write; throws `FencedOut` when this simulator lost its lease. */
  fence?: (tx: Queryable) => Promise<void>;
  /**
   * The same fence as a query (`Lease.fenceQuery`): the usual write (ticks, candles, watermark)
   * is then one statement under it, not a transaction of four (DECISIONS 63). Without it, every
   * write is a transaction that runs `fence` first.
   */
  fenceQuery?: () => FenceQuery;
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
}

/** What the writer holds between writes, and what it knows of the last one. */
interface TapeBuffer {
  ticks: TapeRow[];
  candles: Map<string, ProductCandle>;
  starts: PeriodStartRecord[];
  /** Hours to roll up once over, by `${productId}:${t}`; kept until a write has rolled them up. */
  hours: Map<string, ProductHour>;
  catchUp: { productIds: readonly string[]; before: number } | null;
  dropped: number;
  lastWriteMs: number | null;
  watermark: number;
}

/** One write's share of the buffer, taken out of it when the write starts. */
interface TapeBatch {
  ticks: TapeRow[];
  candles: Map<string, ProductCandle>;
  starts: PeriodStartRecord[];
  catchUp: TapeBuffer['catchUp'];
  /** The hours over by the batch's `through`, rolled up after its candles. */
  over: ProductHour[];
  /** The new watermark, or null when it does not move. */
  advanceTo: number | null;
}

/**
 * Takes the buffer's ticks, candles and period starts for a write, with the hours that are over
 * and the watermark to write; null when there is nothing to write.
 */
function takeBatch(buf: TapeBuffer, through: number | null): TapeBatch | null {
  const advanceTo = through !== null && through > buf.watermark ? through : null;
  // Over: every tick up to the hour's end has been handed over, so its minutes are in the tape
  // or in this batch. Rolled up after the batch's candles, in its transaction.
  const over =
    through === null ? [] : [...buf.hours.values()].filter((h) => h.t + HOUR_MS <= through + 1);
  if (
    !buf.ticks.length &&
    !buf.candles.size &&
    !buf.starts.length &&
    advanceTo === null &&
    !over.length &&
    !buf.catchUp
  )
    return null;
  const batch = {
    ticks: buf.ticks,
    candles: buf.candles,
    starts: buf.starts,
    catchUp: buf.catchUp,
    over,
    advanceTo,
  };
  buf.ticks = [];
  buf.candles = new Map();
  buf.starts = [];
  return batch;
}

/** Writes a batch in one transaction, under the fence; how many hours its catch-up rolled up. */
async function writeBatch(db: Db, o: TapeWriterOptions, batch: TapeBatch): Promise<number> {
  const candles = [...batch.candles.values()];
  const alone = !batch.starts.length && !batch.catchUp && !batch.over.length;
  if (alone && batch.ticks.length <= 5000 && (o.fenceQuery || !o.fence)) {
    // The usual write at rest and in trading: ticks, candles and watermark, nothing else. One
    // statement is its own transaction, the fence one of its parts.
    const fence = o.fenceQuery?.();
    if (!(await writeTape(db, { ticks: batch.ticks, candles, throughMs: batch.advanceTo, fence })))
      throw fence!.refused();
    return 0;
  }
  let caughtUp = 0;
  await db.transaction(async (tx) => {
    await o.fence?.(tx);
    await recordPeriodStarts(tx, batch.starts);
    if (batch.ticks.length <= 5000) {
      // Ticks, candles and watermark in one statement; the hours roll up after it, in the same
      // transaction, from the candles it wrote.
      await writeTape(tx, { ticks: batch.ticks, candles, throughMs: batch.advanceTo });
    } else {
      for (let i = 0; i < batch.ticks.length; i += 5000)
        await insertTicks(tx, batch.ticks.slice(i, i + 5000));
      await upsertCandles(tx, candles);
      if (batch.advanceTo !== null) await advanceWatermark(tx, batch.advanceTo);
    }
    if (batch.catchUp)
      caughtUp = await rollUpHoursBefore(tx, batch.catchUp.productIds, batch.catchUp.before);
    await rollUpHours(tx, batch.over);
  });
  return caughtUp;
}

/**
 * A failed write's batch back in front of the buffer (newer candle states win over the failed
 * ones), the oldest ticks dropped past `maxBuffer`.
 */
function putBack(buf: TapeBuffer, batch: TapeBatch, maxBuffer: number) {
  buf.ticks = batch.ticks.concat(buf.ticks);
  buf.starts = batch.starts.concat(buf.starts);
  for (const [k, c] of batch.candles) if (!buf.candles.has(k)) buf.candles.set(k, c);
  if (buf.ticks.length > maxBuffer) {
    buf.dropped += buf.ticks.length - maxBuffer;
    buf.ticks = buf.ticks.slice(buf.ticks.length - maxBuffer);
  }
}

/** One write of what is buffered: committed and told, refused (fenced out), or put back. */
async function writeOnce(db: Db, o: TapeWriterOptions, maxBuffer: number, buf: TapeBuffer) {
  // Taken with the batch: every tick handed over until now is in it (the feed emits ticks
  // synchronously, stamped with its clock), so the tape is complete through this time once
  // the batch is written.
  const batch = takeBatch(buf, o.through?.() ?? null);
  if (!batch) {
    // Nothing to write (a closed market): the tape is as current as it can be.
    buf.lastWriteMs = Date.now();
    return;
  }
  try {
    const caughtUp = await writeBatch(db, o, batch);
    if (batch.advanceTo !== null) buf.watermark = batch.advanceTo;
    for (const h of batch.over) buf.hours.delete(`${h.productId}:${h.t}`);
    if (batch.catchUp) {
      if (buf.catchUp === batch.catchUp) buf.catchUp = null;
      if (caughtUp) o.log?.info({ hours: caughtUp }, 'rolled up hourly candles');
    }
    buf.lastWriteMs = Date.now();
    if (batch.ticks.length) o.onWritten?.(batch.ticks);
  } catch (err) {
    if (err instanceof FencedOut) {
      // Another simulator leads now: what this one buffered must never reach the tape. Nor
      // its roll-ups: the leader rolls up the hours that are over when it starts.
      buf.hours.clear();
      buf.catchUp = null;
      o.log?.error(
        { dropped: batch.ticks.length, err: err.message },
        'tape write refused: not the leader',
      );
      return;
    }
    putBack(buf, batch, maxBuffer);
    o.log?.warn(
      { err: (err as Error).message, buffered: buf.ticks.length, dropped: buf.dropped },
      'tape write failed; will retry',
    );
  }
}

/**
 * Buffers the tape and writes it every `flushMs` in one transaction; what a write committed is
 * handed to `onWritten` (the feed publishes it then, never before). When the database is away the buffer is kept (up to `maxBuffer` ticks, oldest
 * dropped first, with a warning) and written when it is back.
 */
export function createTapeWriter(db: Db, o: TapeWriterOptions = {}): TapeWriter {
  const flushMs = o.flushMs ?? 250;
  const maxBuffer = o.maxBuffer ?? 500_000;
  const buf: TapeBuffer = {
    ticks: [],
    candles: new Map(),
    starts: [],
    hours: new Map(),
    catchUp: null,
    dropped: 0,
    lastWriteMs: null,
    watermark: 0,
  };
  const watchHour = (productId: string, ts: number) => {
    const t = ts - (ts % HOUR_MS);
    buf.hours.set(`${productId}:${t}`, { productId, t });
  };
  let inFlight: Promise<void> | null = null;

  const flush = (): Promise<void> => {
    if (inFlight)
      return inFlight.then(() =>
        buf.ticks.length || buf.candles.size || buf.starts.length || buf.catchUp
          ? flush()
          : undefined,
      );
    inFlight = writeOnce(db, o, maxBuffer, buf).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  // Resting: nobody has wanted the tape current for `rest.holdMs` (the writer starts wanted).
  let wantedAt = Date.now();
  const resting = () => !!o.rest && Date.now() - wantedAt > o.rest.holdMs;
  let timer: NodeJS.Timeout;
  /** The full cadence, a write every `flushMs`, until the writer rests. */
  const full = () => {
    timer = setInterval(() => {
      if (!resting()) return void flush();
      clearInterval(timer);
      atRest();
    }, flushMs).unref();
  };
  /** At rest, one timer a write, every `rest.flushMs`: the thread sleeps in between. */
  const atRest = () => {
    timer = setTimeout(() => {
      void flush();
      atRest();
    }, o.rest!.flushMs).unref();
  };
  full();

  return {
    addTick: (row) => void buf.ticks.push(row),
    setCandle(c) {
      buf.candles.set(`${c.productId}:${c.t}`, c);
      watchHour(c.productId, c.t);
    },
    rollUpWhenOver: (h) => watchHour(h.productId, h.t),
    rollUpBefore: (productIds, before) => void (buf.catchUp = { productIds, before }),
    addPeriodStart: (r) => void buf.starts.push(r),
    wanted() {
      const was = resting();
      wantedAt = Date.now();
      if (!was) return;
      clearTimeout(timer);
      void flush();
      full();
    },
    flush,
    pending: () => buf.ticks.length,
    lastWriteMs: () => buf.lastWriteMs,
    async stop() {
      clearTimeout(timer);
      await flush();
    },
  };
}
