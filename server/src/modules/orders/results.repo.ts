import type { Queryable } from '@infra/db';
import { columns, type OrderRow } from './orders.repo';

/**
 * A user's settled orders that none of their devices has acknowledged yet, newest first: at most
 * `limit`, settled after `since` (an unseen result older than that is history, not news).
 */
export async function unseenResults(
  db: Queryable,
  userId: number,
  q: { limit: number; since: Date },
): Promise<OrderRow[]> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${columns} FROM orders
      WHERE user_id = $1 AND settled_at IS NOT NULL AND result_seen_at IS NULL AND settled_at > $2
      ORDER BY settled_at DESC, id DESC LIMIT $3`,
    [userId, q.since, q.limit],
  );
  return rows;
}

/**
 * Marks these of the user's settled orders seen, once: another user's order, an open one or an
 * unknown id is left alone, and one already seen keeps its first time. Returns the ids this call
 * acknowledged (empty when all of them were already seen), so only a change is announced.
 */
export async function markResultsSeen(
  db: Queryable,
  userId: number,
  ids: readonly number[],
): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `UPDATE orders SET result_seen_at = now()
      WHERE user_id = $1 AND id = ANY($2::bigint[])
        AND settled_at IS NOT NULL AND result_seen_at IS NULL
      RETURNING id`,
    [userId, ids],
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}
