import type { Queryable } from '@infra/db';
import type { TradeMode } from '@shared/orders/model';

/** One group's counts and sums, as the database gives them (sums as text: bigint). */
export interface StatsGroupRow {
  /** Which grouping: 'all', 'product', 'duration' or 'day'. */
  grp: 'all' | 'product' | 'duration' | 'day';
  product_id: string | null;
  duration: number | null;
  day: string | null;
  orders: number;
  won: number;
  lost: number;
  draw: number;
  void: number;
  sold: number;
  stake: string;
  payout: string;
}

/**
 * A user's closed orders of one mode settled at or after `since`, counted and summed overall, by
 * product, by duration and by platform day (the day of `settled_at` shifted by `offsetMinutes`),
 * in one statement. Only the user's own orders; open orders never (they have no result yet).
 */
export async function statsGroups(
  db: Queryable,
  userId: number,
  q: { mode: TradeMode; since: Date; offsetMinutes: number },
): Promise<StatsGroupRow[]> {
  const { rows } = await db.query<StatsGroupRow>(
    `WITH closed AS (
       SELECT product_id, duration, status, amount, coalesce(payout, 0) AS payout,
              to_char((settled_at AT TIME ZONE 'UTC') + $4::int * interval '1 minute',
                      'YYYY-MM-DD') AS day
         FROM orders
        WHERE user_id = $1 AND mode = $2 AND status <> 'open' AND settled_at >= $3)
     SELECT CASE GROUPING(product_id, duration, day)
              WHEN 7 THEN 'all' WHEN 3 THEN 'product' WHEN 5 THEN 'duration' ELSE 'day'
            END AS grp,
            product_id, duration, day,
            count(*)::int AS orders,
            (count(*) FILTER (WHERE status = 'won'))::int AS won,
            (count(*) FILTER (WHERE status = 'lost'))::int AS lost,
            (count(*) FILTER (WHERE status = 'draw'))::int AS draw,
            (count(*) FILTER (WHERE status = 'void'))::int AS void,
            (count(*) FILTER (WHERE status = 'sold'))::int AS sold,
            coalesce(sum(amount), 0)::text AS stake,
            coalesce(sum(payout), 0)::text AS payout
       FROM closed
      GROUP BY GROUPING SETS ((), (product_id), (duration), (day))`,
    [userId, q.mode, q.since, q.offsetMinutes],
  );
  return rows;
}
