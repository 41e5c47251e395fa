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
 * Candles of one product, newest `limit` buckets before `before`, oldest first. 1-minute candles
 * are read as stored; coarser ones are rolled up in SQL (first open, max high, min low, last close).
 */
export async function selectCandles(
  db: Queryable,
  productId: string,
  intervalMs: number,
  limit: number,
  before: number,
): Promise<CandleRow[]> {
  const from = before - limit * intervalMs;
  const sql =
    intervalMs === 60_000
      ? `SELECT t, o, h, l, c, v, a::text AS a, n FROM candles
         WHERE product_id = $1 AND t >= $2 AND t < $3 ORDER BY t DESC LIMIT $4`
      : `SELECT t - t % $5 AS t, (array_agg(o ORDER BY t))[1] AS o, max(h) AS h, min(l) AS l,
                (array_agg(c ORDER BY t DESC))[1] AS c, sum(v)::bigint AS v, sum(a)::text AS a, sum(n)::int AS n
         FROM candles WHERE product_id = $1 AND t >= $2 AND t < $3
         GROUP BY t - t % $5 ORDER BY 1 DESC LIMIT $4`;
  const params =
    intervalMs === 60_000
      ? [productId, from, before, limit]
      : [productId, from, before, limit, intervalMs];
  const { rows } = await db.query<CandleRow>(sql, params);
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
