import type { Queryable } from '@infra/db';

export interface CandleRow {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  a: string;
  n: number;
}

/**
 * What one coarse candle request may read (docs/API.md, Market; DECISIONS.md, Hourly candles):
 * at most `minutes` 1-minute rows of `candles` (about 13.9 days: a 15m × 1000 window is 15 000)
 * and `hours` hourly rows of `candles_1h` (a 1d × 1000 window is 24 000), each bounded by the time
 * range it reads (a table holds at most one row per product and minute, or hour), whatever plan
 * the database picks. With the hourly table current, the largest request (1d × 1000) reads 24 000
 * hours and the current hour's minutes.
 */
export const CANDLE_READ_MAX = { minutes: 20_000, hours: 24_000 };

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * Candles of one product, newest `limit` buckets before `before` (a multiple of the interval),
 * oldest first. 1-minute candles are read as stored. Coarser ones are rolled up in SQL (first
 * open, max high, min low, last close, sums): 5m and 15m from the window's 1-minute rows; 1h, 4h
 * and 1d from the hourly roll-up (`candles_1h`, complete hours only) up to the newest hour it
 * holds, and from 1-minute rows after it (the current hour, and any hour the simulator has not
 * rolled up yet), which gives the very candles the 1-minute rows would. Reads are bounded by
 * `max`: when the minutes to read (or the hours) span more than that, only the newest part of the
 * window is read, and the buckets that start before it are left out (never a candle missing some
 * of its rows): the answer then has fewer than `limit` candles.
 */
export async function selectCandles(
  db: Queryable,
  productId: string,
  intervalMs: number,
  limit: number,
  before: number,
  max = CANDLE_READ_MAX,
): Promise<CandleRow[]> {
  const from = before - limit * intervalMs;
  if (intervalMs === MINUTE_MS) {
    const { rows } = await db.query<CandleRow>(
      `SELECT t, o, h, l, c, v, a::text AS a, n FROM candles
       WHERE product_id = $1 AND t >= $2 AND t < $3 ORDER BY t DESC LIMIT $4`,
      [productId, from, before, limit],
    );
    return rows.reverse();
  }
  if (before % intervalMs !== 0)
    throw new RangeError(`before must be a multiple of the interval: ${before}`);
  const hourly = intervalMs % HOUR_MS === 0;
  // `span`: the window's rows are the 1-minute rows from minutes_from and, hourly, the stored
  // hours in [hours_from, m); together they cover [lowest, before) whole. m is the end of the
  // newest stored hour of the window (one step back along candles_1h's primary key): the hours
  // stop there and the minutes start there, but never more than max.minutes minutes back (and
  // then no hour is read). 5m and 15m read minutes only.
  const span = hourly
    ? `edge AS (
         SELECT coalesce(max(t) + ${HOUR_MS}, $2) AS m FROM candles_1h
         WHERE product_id = $1 AND t >= $2 AND t < $3
       ), span AS (
         SELECT m, minutes_from,
                CASE WHEN minutes_from > m THEN m ELSE hours_from END AS hours_from,
                CASE WHEN minutes_from > m THEN minutes_from ELSE hours_from END AS lowest
         FROM (SELECT m, greatest(m, $3 - $6::bigint * ${MINUTE_MS}) AS minutes_from,
                      greatest($2, m - $7::bigint * ${HOUR_MS}) AS hours_from FROM edge) e
       )`
    : `span AS (
         SELECT x AS minutes_from, x AS lowest
         FROM (SELECT greatest($2, $3 - $6::bigint * ${MINUTE_MS}) AS x) e
       )`;
  const hours = hourly
    ? `UNION ALL
       SELECT t, o, h, l, c, v, a, n FROM candles_1h
       WHERE product_id = $1 AND t >= (SELECT hours_from FROM span) AND t < (SELECT m FROM span)`
    : '';
  // min(ARRAY[t, o]) is the open of the bucket's first row, max(ARRAY[t, c]) the close of its
  // last: plain aggregates, where array_agg(… ORDER BY t) sorted every bucket's rows again.
  const { rows } = await db.query<CandleRow>(
    `WITH ${span}, r AS (
       SELECT t, o, h, l, c, v, a, n FROM candles
       WHERE product_id = $1 AND t >= (SELECT minutes_from FROM span) AND t < $3
       ${hours}
     )
     SELECT t - t % $5 AS t, (min(ARRAY[t, o]))[2] AS o, max(h) AS h, min(l) AS l,
            (max(ARRAY[t, c]))[2] AS c, sum(v)::bigint AS v, sum(a)::text AS a, sum(n)::int AS n
     FROM r GROUP BY 1
     HAVING t - t % $5 >= (SELECT lowest FROM span)
     ORDER BY 1 DESC LIMIT $4`,
    [productId, from, before, limit, intervalMs, max.minutes, ...(hourly ? [max.hours] : [])],
  );
  return rows.reverse();
}

export interface TickRow {
  seq: number;
  ts: number;
  price: number;
  qty: number;
}

/** The recorded tape of one product between two times (after a sequence number), in sequence order. */
export async function selectTicks(
  db: Queryable,
  productId: string,
  from: number,
  to: number,
  limit: number,
  afterSeq = 0,
): Promise<TickRow[]> {
  const { rows } = await db.query<TickRow>(
    `SELECT seq, ts, price, qty FROM ticks
     WHERE product_id = $1 AND ts >= $2 AND ts <= $3 AND seq > $5 ORDER BY seq LIMIT $4`,
    [productId, from, to, limit, afterSeq],
  );
  return rows;
}
