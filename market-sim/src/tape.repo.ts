import type { Queryable } from '@infra/db';
import type { CandleUnits } from '@shared/aggregate';

/** A tick as the tape stores it: price in units, qty in lots. */
export interface TapeRow {
  productId: string;
  seq: number;
  ts: number;
  price: number;
  qty: number;
}

export type ProductCandle = CandleUnits & { productId: string };

/**
 * The ticks' insert, its parameters from `$<first>` on, and their values; a tick already on the
 * tape (same product and seq) is kept. `fenced`: only while the write's fence `f` has its row.
 */
const ticksInsert = (
  first: number,
  fenced = true,
) => `INSERT INTO ticks (product_id, seq, ts, price, qty)
     SELECT u.* FROM unnest(${params(first, ['text', 'bigint', 'bigint', 'bigint', 'bigint'])}) AS u
     ${fenced ? 'JOIN f ON true' : ''} ON CONFLICT DO NOTHING`;
const tickValues = (rows: readonly TapeRow[]) => [
  rows.map((r) => r.productId),
  rows.map((r) => r.seq),
  rows.map((r) => r.ts),
  rows.map((r) => r.price),
  rows.map((r) => r.qty),
];

/** `$n::type[], …` for consecutive parameters from `$first`. */
const params = (first: number, types: readonly string[]) =>
  types.map((t, i) => `$${first + i}::${t}[]`).join(', ');

/** Inserts ticks in one statement (the caller's transaction holds the fence). */
export async function insertTicks(db: Queryable, rows: readonly TapeRow[]): Promise<void> {
  if (!rows.length) return;
  await db.query(ticksInsert(1, false), tickValues(rows));
}

/** Writes 1-minute candles, replacing a stored candle of the same minute (the writer holds the whole minute). */
export async function upsertCandles(
  db: Queryable,
  candles: readonly ProductCandle[],
): Promise<void> {
  if (!candles.length) return;
  await db.query(candlesUpsert(1, false), candleValues(candles));
}

const candleTypes = ['text', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint'];
/** The candles' upsert, its parameters from `$<first>` on, and their values (`fenced`: as ticks'). */
const candlesUpsert = (
  first: number,
  fenced = true,
) => `INSERT INTO candles (product_id, t, o, h, l, c, v, a, n)
     SELECT u.* FROM unnest(${params(first, [...candleTypes, 'int'])}) AS u
     ${fenced ? 'JOIN f ON true' : ''} ON CONFLICT (product_id, t) DO UPDATE SET
       o = EXCLUDED.o, h = EXCLUDED.h, l = EXCLUDED.l, c = EXCLUDED.c, v = EXCLUDED.v, a = EXCLUDED.a, n = EXCLUDED.n`;
const candleValues = (candles: readonly ProductCandle[]) => {
  const col = <K extends keyof ProductCandle>(k: K) => candles.map((c) => c[k]);
  return [
    col('productId'),
    col('t'),
    col('o'),
    col('h'),
    col('l'),
    col('c'),
    col('v'),
    candles.map((c) => c.a.toString()),
    col('n'),
  ];
};

/**
 * A write's ticks, candle states and watermark in one statement (data-modifying CTEs, each run
 * once): on the embedded database every statement is a round trip between threads and costs
 * PGlite its parse and plan, and a write of the tape comes every TAPE_FLUSH_MS (DECISIONS 62).
 *
 * With `fence` (the lease's fence query) the statement is its own transaction: `f` holds the
 * lease row FOR SHARE and every part reads it, so a simulator whose lease has moved on writes
 * nothing and gets false (data-modifying CTEs run whether or not anything reads them: each is
 * joined to `f` instead). Without it, the caller's transaction holds the fence. Nothing to write:
 * no statement, and true.
 */
export async function writeTape(
  db: Queryable,
  w: {
    ticks: readonly TapeRow[];
    candles: readonly ProductCandle[];
    throughMs: number | null;
    fence?: { sql: string; values: readonly unknown[] };
  },
): Promise<boolean> {
  if (!w.ticks.length && !w.candles.length && w.throughMs === null) return true;
  const values: unknown[] = [...(w.fence?.values ?? [])];
  const parts = [`f AS (${w.fence?.sql ?? 'SELECT 1'})`];
  if (w.ticks.length) {
    parts.push(`t AS (${ticksInsert(values.length + 1)})`);
    values.push(...tickValues(w.ticks));
  }
  if (w.candles.length) {
    parts.push(`c AS (${candlesUpsert(values.length + 1)})`);
    values.push(...candleValues(w.candles));
  }
  if (w.throughMs !== null) {
    values.push(w.throughMs);
    parts.push(
      `w AS (UPDATE tape_watermark SET through_ms = GREATEST(through_ms, $${values.length}::bigint) FROM f)`,
    );
  }
  const { rows } = await db.query<{ led: number }>(
    `WITH ${parts.join(', ')} SELECT count(*)::int AS led FROM f`,
    values,
  );
  return rows[0]!.led > 0;
}

/** The hourly roll-up's bucket (table `candles_1h`). */
export const HOUR_MS = 3_600_000;

/** One product's hour (its start, epoch ms) in the hourly roll-up. */
export interface ProductHour {
  productId: string;
  t: number;
}

// The exact roll-up of a product's rows in `candles` by hour (min(ARRAY[t, o])[2] is the open of
// the first, max(ARRAY[t, c])[2] the close of the last), replacing what is stored: every row is
// computed again from the hour's rows, so writing an hour twice, or after more of its minutes
// came, leaves it right.
const ROLL_UP = `SELECT m.product_id, m.t - m.t % ${HOUR_MS} AS t, (min(ARRAY[m.t, m.o]))[2],
         max(m.h), min(m.l), (max(ARRAY[m.t, m.c]))[2], sum(m.v)::bigint, sum(m.a)::bigint,
         sum(m.n)::int`;
const UPSERT_HOUR = `ON CONFLICT (product_id, t) DO UPDATE SET
       o = EXCLUDED.o, h = EXCLUDED.h, l = EXCLUDED.l, c = EXCLUDED.c, v = EXCLUDED.v,
       a = EXCLUDED.a, n = EXCLUDED.n`;

/**
 * Rolls the given hours up from their rows in `candles` into `candles_1h` (an hour with no rows
 * writes nothing). Only for hours that are over: no minute of them may come later. Called by the
 * tape writer in the transaction that writes an hour's last minutes.
 */
export async function rollUpHours(db: Queryable, hours: readonly ProductHour[]): Promise<void> {
  if (!hours.length) return;
  await db.query(
    `INSERT INTO candles_1h (product_id, t, o, h, l, c, v, a, n)
     ${ROLL_UP}
     FROM unnest($1::text[], $2::bigint[]) AS q (product_id, t)
     JOIN candles m ON m.product_id = q.product_id AND m.t >= q.t AND m.t < q.t + ${HOUR_MS}
     GROUP BY 1, 2
     ${UPSERT_HOUR}`,
    [hours.map((h) => h.productId), hours.map((h) => h.t)],
  );
}

/**
 * Rolls up every hour of these products from the newest one stored in `candles_1h` (rolled up
 * again: it may have been stored before its last minutes, by a migration while an older
 * simulator still wrote) up to `before` (an hour start; the hours before it are over), and all of
 * a product's hours when none is stored. Run by the simulator on start, after any backfill: the
 * backfill's hours, and hours a simulator that stopped mid-hour left, are then in the table.
 * Returns the number of hours written.
 */
export async function rollUpHoursBefore(
  db: Queryable,
  productIds: readonly string[],
  before: number,
): Promise<number> {
  if (!productIds.length) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO candles_1h (product_id, t, o, h, l, c, v, a, n)
     ${ROLL_UP}
     FROM unnest($1::text[]) AS q (product_id)
     CROSS JOIN LATERAL (
       SELECT coalesce(max(h.t), 0) AS since FROM candles_1h h WHERE h.product_id = q.product_id
     ) s
     JOIN candles m ON m.product_id = q.product_id AND m.t >= s.since AND m.t < $2
     GROUP BY 1, 2
     ${UPSERT_HOUR}`,
    [productIds, before],
  );
  return rowCount;
}

/**
 * Moves the tape's watermark forward to `throughMs` (never back): every tick with ts ≤ it is
 * written, and none with a smaller ts will be. Called in the transaction that writes the ticks.
 */
export async function advanceWatermark(db: Queryable, throughMs: number): Promise<void> {
  await db.query('UPDATE tape_watermark SET through_ms = GREATEST(through_ms, $1::bigint)', [
    throughMs,
  ]);
}

/** The tape's watermark (epoch ms; 0 before any live write). */
export async function tapeWatermark(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ through_ms: number }>('SELECT through_ms FROM tape_watermark');
  return rows[0]?.through_ms ?? 0;
}

/** The last tick of every product on the tape. */
export async function lastTicks(db: Queryable): Promise<Map<string, TapeRow>> {
  const { rows } = await db.query<{
    product_id: string;
    seq: number;
    ts: number;
    price: number;
    qty: number;
  }>(
    `SELECT DISTINCT ON (product_id) product_id, seq, ts, price, qty
     FROM ticks ORDER BY product_id, seq DESC`,
  );
  return new Map(
    rows.map((r) => [
      r.product_id,
      { productId: r.product_id, seq: r.seq, ts: r.ts, price: r.price, qty: r.qty },
    ]),
  );
}

/** 1-minute candles of one product with t ≥ since, oldest first. */
export async function candlesSince(
  db: Queryable,
  productId: string,
  since: number,
): Promise<CandleUnits[]> {
  const { rows } = await db.query<{
    t: number;
    o: number;
    h: number;
    l: number;
    c: number;
    v: number;
    a: string;
    n: number;
  }>(
    `SELECT t, o, h, l, c, v, a::text AS a, n FROM candles WHERE product_id = $1 AND t >= $2 ORDER BY t`,
    [productId, since],
  );
  return rows.map((r) => ({
    t: r.t,
    o: r.o,
    h: r.h,
    l: r.l,
    c: r.c,
    v: r.v,
    a: BigInt(r.a),
    n: r.n,
  }));
}

/** Deletes raw ticks older than `before` (candles stay). Returns how many went. */
export async function pruneTicks(db: Queryable, before: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM ticks WHERE ts < $1', [before]);
  return rowCount;
}

/** Products an operator has put under maintenance. */
export async function maintenanceList(db: Queryable): Promise<Map<string, number | null>> {
  const { rows } = await db.query<{ product_id: string; opens_at: number | null }>(
    'SELECT product_id, opens_at FROM product_maintenance',
  );
  return new Map(rows.map((r) => [r.product_id, r.opens_at]));
}

/**
 * Puts a product under maintenance (`opensAt`: the announced opening time, or null) or, with
 * `on: false`, takes it out. Another call while under maintenance replaces the opening time.
 */
export async function setMaintenance(
  db: Queryable,
  id: string,
  m: { on: true; opensAt: number | null } | { on: false },
): Promise<void> {
  if (m.on) {
    await db.query(
      `INSERT INTO product_maintenance (product_id, opens_at) VALUES ($1, $2)
       ON CONFLICT (product_id) DO UPDATE SET opens_at = EXCLUDED.opens_at`,
      [id, m.opensAt],
    );
  } else {
    await db.query('DELETE FROM product_maintenance WHERE product_id = $1', [id]);
  }
}
