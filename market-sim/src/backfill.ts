import type { Db } from '@infra/db';
import { isOpen, nextOpen } from './calendar';
import type { ProductBook } from './product-book';
import type { Rng } from './rng';
import { insertTicks, upsertCandles, type ProductCandle, type TapeRow } from './tape.repo';

/** Raw ticks kept from a backfill; older backfilled history is stored as 1-minute candles only. */
export const BACKFILL_RAW_MINUTES = 30;

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
