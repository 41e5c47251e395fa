import type { Queryable } from '@infra/db';
import { columns, type OrderRow } from './orders.repo';
import { dueOrder, feedLive, nowMs } from './settlement.repo';

/**
 * Settlement by set (DECISIONS.md, "Settlement by set"): the orders of one product whose expiries
 * fall between the same two ticks share their exit tick (the last at or before each expiry), so
 * the tape is read once per round, and each set's orders are claimed and given their results in
 * one statement, a batch at a time.
 */

/** The due orders of each product: their distinct expiries, with the clocks that judge them. */
export interface DueExpiries {
  byProduct: Map<string, number[]>;
  /** The database clock, epoch ms. */
  nowMs: number;
  /** The tape's watermark: every tick up to it written, none earlier to come. */
  watermarkMs: number;
  feedLive: boolean;
}

/**
 * The distinct expiries of every product's due orders (the `orders_due` index), the earliest
 * `spanMs` of each product's only, so that a backlog is read a slice at a time. Locks nothing.
 */
export async function dueExpiries(db: Queryable, spanMs: number): Promise<DueExpiries> {
  const { rows } = await db.query<{
    product_id: string | null;
    expiries: number[] | null;
    now_ms: number;
    watermark_ms: number;
    feed_live: boolean;
  }>(
    `WITH due AS (
       SELECT o.product_id, o.expires_ms, min(o.expires_ms) OVER (PARTITION BY o.product_id) AS first_ms
       FROM orders o WHERE ${dueOrder}
     ), p AS (
       SELECT product_id, array_agg(DISTINCT expires_ms ORDER BY expires_ms) AS expiries
       FROM due WHERE expires_ms <= first_ms + $1::bigint GROUP BY product_id
     )
     SELECT p.product_id, p.expiries, ${nowMs} AS now_ms,
            (SELECT through_ms FROM tape_watermark) AS watermark_ms, ${feedLive} AS feed_live
     FROM (SELECT 1) one LEFT JOIN p ON true`,
    [spanMs],
    { prepare: true },
  );
  const byProduct = new Map<string, number[]>();
  for (const r of rows)
    if (r.product_id && r.expiries) byProduct.set(r.product_id, r.expiries.map(Number));
  return {
    byProduct,
    nowMs: Number(rows[0]!.now_ms),
    watermarkMs: Number(rows[0]!.watermark_ms ?? 0),
    feedLive: rows[0]!.feed_live,
  };
}

export interface TapeTick {
  seq: number;
  ts: number;
  price: number;
}

/**
 * Each product's ticks around the expiries [from, to]: from the last tick at or before `from`
 * through the first one after `to`, in tape order (ts, seq). Two index lookups and a range read
 * per product, whatever the number of orders.
 */
export async function ticksAround(
  db: Queryable,
  ranges: readonly { productId: string; fromMs: number; toMs: number }[],
): Promise<Map<string, TapeTick[]>> {
  const { rows } = await db.query<TapeTick & { product_id: string }>(
    `SELECT p.product_id, t.seq, t.ts, t.price
     FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS p(product_id, lo, hi)
     CROSS JOIN LATERAL (
       SELECT seq, ts, price FROM ticks t
       WHERE t.product_id = p.product_id
         AND t.ts >= coalesce((SELECT max(m.ts) FROM ticks m WHERE m.product_id = p.product_id AND m.ts <= p.lo), p.lo)
         AND t.ts <= coalesce((SELECT min(m.ts) FROM ticks m WHERE m.product_id = p.product_id AND m.ts > p.hi), p.hi)
     ) t
     ORDER BY p.product_id, t.ts, t.seq`,
    [ranges.map((r) => r.productId), ranges.map((r) => r.fromMs), ranges.map((r) => r.toMs)],
    { prepare: true },
  );
  const out = new Map<string, TapeTick[]>(ranges.map((r) => [r.productId, []]));
  for (const r of rows)
    out.get(r.product_id)!.push({ seq: Number(r.seq), ts: Number(r.ts), price: Number(r.price) });
  return out;
}

/**
 * Claims up to `limit` open due orders of one product with expiries in [fromMs, toMs] (a set:
 * they share the exit tick `exit`, final for all of them, as the caller decided), skipping rows
 * other workers hold, and writes their results in the same statement: exit-rule.ts's `settle` in
 * SQL. For each order the exit is the set's, unless that tick lies before the order's own entry
 * (then none). No exit, or one older than the expiry less `maxFeedDelayMs`, voids (FEED_STALE,
 * stake refunded); the entry price met again is a draw (refunded); up wins above it and down
 * below it (stake + stake × rate, rounded down); else lost. Only orders still open change;
 * returns them as written.
 */
export async function settleSet(
  tx: Queryable,
  q: {
    productId: string;
    fromMs: number;
    toMs: number;
    exit: TapeTick | null;
    maxFeedDelayMs: number;
    limit: number;
  },
): Promise<OrderRow[]> {
  const { rows } = await tx.query<OrderRow>(
    `WITH c AS (
       SELECT o.id, o.amount, o.rate_bp,
              ($4::bigint IS NOT NULL AND $5::bigint >= o.entry_ts) AS has_exit,
              CASE WHEN $4::bigint IS NULL OR $5::bigint < o.entry_ts
                        OR $5::bigint < o.expires_ms - $7::bigint THEN 'void'
                   WHEN $6::bigint = o.entry_price THEN 'draw'
                   WHEN (o.direction = 'up') = ($6::bigint > o.entry_price) THEN 'won'
                   ELSE 'lost' END AS status
       FROM orders o
       WHERE ${dueOrder} AND o.product_id = $1 AND o.expires_ms BETWEEN $2::bigint AND $3::bigint
         -- the same bounds on expires_at (a little wider), for the orders_due index
         AND o.expires_at >= 'epoch'::timestamptz + ($2::bigint - 1) * interval '1 millisecond'
         AND o.expires_at < 'epoch'::timestamptz + ($3::bigint + 2) * interval '1 millisecond'
       ORDER BY o.expires_at, o.user_id LIMIT $8 FOR UPDATE SKIP LOCKED
     )
     UPDATE orders o SET status = c.status,
            exit_seq = CASE WHEN c.has_exit THEN $4::bigint END,
            exit_ts = CASE WHEN c.has_exit THEN $5::bigint END,
            exit_price = CASE WHEN c.has_exit THEN $6::bigint END,
            payout = CASE c.status WHEN 'won' THEN c.amount + (c.amount * c.rate_bp) / 10000
                                   WHEN 'lost' THEN 0 ELSE c.amount END,
            void_reason = CASE WHEN c.status = 'void' THEN 'FEED_STALE' END,
            settled_at = now()
     FROM c WHERE o.id = c.id AND o.status = 'open'
     RETURNING ${columns.replace(/(\w+)/g, 'o.$1')}`,
    [
      q.productId,
      q.fromMs,
      q.toMs,
      q.exit?.seq ?? null,
      q.exit?.ts ?? null,
      q.exit?.price ?? null,
      q.maxFeedDelayMs,
      q.limit,
    ],
    { prepare: true },
  );
  return rows;
}
