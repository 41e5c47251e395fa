import type { Queryable } from '@server/platform/db';

export interface OrderRow {
  id: number;
  user_id: number;
  product_id: string;
  direction: 'up' | 'down';
  amount: number;
  duration: number;
  rate_bp: number;
  entry_seq: number;
  entry_ts: number;
  entry_price: number;
  created_at: Date;
  expires_at: Date;
  expires_ms: number;
  status: 'open' | 'won' | 'lost' | 'draw' | 'void';
  exit_seq: number | null;
  exit_ts: number | null;
  exit_price: number | null;
  payout: number | null;
  settled_at: Date | null;
  void_reason: string | null;
}

const columns = `id, user_id, product_id, direction, amount, duration, rate_bp, entry_seq, entry_ts, entry_price,
  created_at, expires_at, expires_ms, status, exit_seq, exit_ts, exit_price, payout, settled_at, void_reason`;

/** Inserts an open order; the expiry is the database's now() + duration. */
export async function insertOrder(
  tx: Queryable,
  o: {
    userId: number;
    productId: string;
    direction: string;
    amount: number;
    duration: number;
    rateBp: number;
    entry: { seq: number; ts: number; price: number };
  },
): Promise<OrderRow> {
  const { rows } = await tx.query<OrderRow>(
    `INSERT INTO orders (user_id, product_id, direction, amount, duration, rate_bp, entry_seq, entry_ts, entry_price, expires_at, expires_ms)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, e, floor(extract(epoch FROM e) * 1000)::bigint
     FROM (SELECT now() + make_interval(secs => $5) AS e) x
     RETURNING ${columns}`,
    [
      o.userId,
      o.productId,
      o.direction,
      o.amount,
      o.duration,
      o.rateBp,
      o.entry.seq,
      o.entry.ts,
      o.entry.price,
    ],
  );
  return rows[0]!;
}

export async function orderOfUser(
  db: Queryable,
  userId: number,
  id: number,
): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${columns} FROM orders WHERE id = $1 AND user_id = $2`,
    [id, userId],
  );
  return rows[0] ?? null;
}

export async function ordersOfUser(
  db: Queryable,
  userId: number,
  q: { status?: 'open' | 'closed'; limit: number; before?: number },
): Promise<OrderRow[]> {
  const statusClause =
    q.status === 'open'
      ? "AND status = 'open'"
      : q.status === 'closed'
        ? "AND status <> 'open'"
        : '';
  const { rows } = await db.query<OrderRow>(
    `SELECT ${columns} FROM orders WHERE user_id = $1 ${statusClause} AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
    [userId, q.before ?? null, q.limit],
  );
  return rows;
}

export interface DueOrder extends OrderRow {
  x_seq: number | null;
  x_ts: number | null;
  x_price: number | null;
  tick_after: boolean;
  since_expiry_ms: number;
}

/**
 * Claims up to `limit` orders due by the database clock, skipping rows other workers hold, with
 * what the tape says about each expiry: the last tick at or before it, and whether a later one exists.
 */
export async function claimDue(tx: Queryable, limit: number): Promise<DueOrder[]> {
  const { rows } = await tx.query<DueOrder>(
    `WITH due AS (
       SELECT ${columns} FROM orders
       WHERE status = 'open' AND expires_at <= now()
       ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED
     )
     SELECT due.*, x.seq AS x_seq, x.ts AS x_ts, x.price AS x_price,
            EXISTS (SELECT 1 FROM ticks a WHERE a.product_id = due.product_id AND a.ts > due.expires_ms) AS tick_after,
            (extract(epoch FROM now() - due.expires_at) * 1000)::bigint AS since_expiry_ms
     FROM due
     LEFT JOIN LATERAL (
       SELECT seq, ts, price FROM ticks t
       WHERE t.product_id = due.product_id AND t.ts <= due.expires_ms
       ORDER BY t.ts DESC, t.seq DESC LIMIT 1
     ) x ON true`,
    [limit],
  );
  return rows;
}

/** Writes many results in one statement; only orders still open change. */
export async function markSettledMany(
  tx: Queryable,
  list: readonly {
    id: number;
    status: string;
    exit: { seq: number; ts: number; price: number } | null;
    payout: number;
    voidReason: string | null;
  }[],
): Promise<OrderRow[]> {
  const { rows } = await tx.query<OrderRow>(
    `UPDATE orders o SET status = v.status, exit_seq = v.exit_seq, exit_ts = v.exit_ts, exit_price = v.exit_price,
            payout = v.payout, void_reason = v.void_reason, settled_at = now()
     FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[])
          AS v(id, status, exit_seq, exit_ts, exit_price, payout, void_reason)
     WHERE o.id = v.id AND o.status = 'open'
     RETURNING ${columns.replace(/(\w+)/g, 'o.$1')}`,
    [
      list.map((x) => x.id),
      list.map((x) => x.status),
      list.map((x) => x.exit?.seq ?? null),
      list.map((x) => x.exit?.ts ?? null),
      list.map((x) => x.exit?.price ?? null),
      list.map((x) => x.payout),
      list.map((x) => x.voidReason),
    ],
  );
  return rows;
}

/** Σ(payout − stake) over settled orders: all of them, and those settled since `since`. */
export async function profitAndLoss(
  db: Queryable,
  userId: number,
  since: Date,
): Promise<{ total: number; today: number }> {
  const { rows } = await db.query<{ total: string; today: string }>(
    `SELECT coalesce(sum(payout - amount), 0)::text AS total,
            coalesce(sum(payout - amount) FILTER (WHERE settled_at >= $2), 0)::text AS today
     FROM orders WHERE user_id = $1 AND status <> 'open'`,
    [userId, since],
  );
  return { total: Number(rows[0]!.total), today: Number(rows[0]!.today) };
}

/** The acceptance time (epoch ms) of the oldest open order of each product that has one. */
export async function oldestOpenByProduct(db: Queryable): Promise<Map<string, number>> {
  const { rows } = await db.query<{ product_id: string; accepted: number }>(
    `SELECT product_id, floor(extract(epoch FROM min(created_at)) * 1000)::bigint AS accepted
     FROM orders WHERE status = 'open' GROUP BY product_id`,
  );
  return new Map(rows.map((r) => [r.product_id, r.accepted]));
}
