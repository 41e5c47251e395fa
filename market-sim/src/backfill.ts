import type { Db } from '@infra/db';
import { isOpen, nextOpen } from './calendar';
import type { ProductSpec } from './catalogue';
import type { PriceModel } from './model';
import type { ProductBook } from './product-book';
import type { Rng } from './rng';
import { insertTicks, upsertCandles, type ProductCandle, type TapeRow } from './tape.repo';

/** Raw ticks kept from a backfill; older backfilled history is stored as 1-minute candles only. */
export const BACKFILL_RAW_MINUTES = 30;

/** Coarse history: one candle per hour, drawn from the model in 5-minute steps. */
const COARSE_CANDLE_MS = 3_600_000;
const COARSE_STEP_MS = 300_000;

/**
 * The long past before a first start's backfill (months, for the 4h and 1D charts), drawn with
 * the same model and calendar as every tick but in coarse steps, and recorded as hourly candles
 * only (a row at each open hour's start of the candles table, which coarser intervals roll up
 * as they do 1-minute rows). The model is left where the history ends, so the backfill and the
 * live feed continue the same path. `ticksPerSecond` scales each step's volume and count to
 * what that many ticks would trade. Returns the number of candles written.
 */
export async function coarseHistory(
  db: Db,
  spec: ProductSpec,
  model: PriceModel,
  from: number,
  to: number,
  ticksPerSecond: number,
): Promise<number> {
  const ticksPerStep = Math.max(1, Math.round((COARSE_STEP_MS / 1000) * ticksPerSecond));
  const candles: ProductCandle[] = [];
  let candle = null as ProductCandle | null;
  let last: number | null = null;
  let ts = from - (from % COARSE_STEP_MS);
  while (ts < to) {
    if (!isOpen(spec.calendar, ts)) {
      const opens = nextOpen(spec.calendar, ts);
      if (opens === null || opens >= to) break;
      ts = opens;
      continue;
    }
    const { price, qty } = model.next(last === null ? COARSE_STEP_MS : ts - last);
    last = ts;
    const t = ts - (ts % COARSE_CANDLE_MS);
    if (candle?.t !== t) {
      if (candle) candles.push(candle);
      candle = { productId: spec.id, t, o: price, h: price, l: price, c: price, v: 0, a: 0n, n: 0 };
    }
    candle.h = Math.max(candle.h, price);
    candle.l = Math.min(candle.l, price);
    candle.c = price;
    candle.v += qty * ticksPerStep;
    candle.a += BigInt(price) * BigInt(qty * ticksPerStep);
    candle.n += ticksPerStep;
    ts += COARSE_STEP_MS;
  }
  if (candle) candles.push(candle);
  await db.transaction(async (tx) => {
    for (let i = 0; i < candles.length; i += 2000)
      await upsertCandles(tx, candles.slice(i, i + 2000));
  });
  return candles.length;
}

/**
 * Generates the history between `from` and `to` with the same model and calendar as live ticks
 * and records it: every 1-minute candle, and the raw ticks of the last BACKFILL_RAW_MINUTES.
 * Returns the number of ticks generated.
 */
export async function backfill(
  db: Db,
  book: ProductBook,
  from: number,
  to: number,
  meanInterval: number,
  jitter: Rng,
): Promise<number> {
  const rawSince = to - BACKFILL_RAW_MINUTES * 60_000;
  const rows: TapeRow[] = [];
  const candles: ProductCandle[] = [];
  let made = 0;
  let ts = from + meanInterval * (0.5 + jitter.next());
  while (ts < to) {
    if (!isOpen(book.spec.calendar, ts)) {
      const opens = nextOpen(book.spec.calendar, ts);
      if (opens === null || opens >= to) break;
      ts = opens;
      continue;
    }
    const { row, closed } = book.step(Math.floor(ts));
    made++;
    if (row.ts >= rawSince) rows.push(row);
    if (closed) candles.push({ ...closed, productId: book.spec.id });
    ts += meanInterval * (0.5 + jitter.next());
  }
  // The minute still open at `to` is written too; live ticks continue it.
  const lastCandle = book.currentCandle();
  if (lastCandle) candles.push({ ...lastCandle, productId: book.spec.id });
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 5000) await insertTicks(tx, rows.slice(i, i + 5000));
    for (let i = 0; i < candles.length; i += 2000)
      await upsertCandles(tx, candles.slice(i, i + 2000));
  });
  return made;
}
