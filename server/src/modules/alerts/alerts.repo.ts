import type { AlertDirection } from '@shared/alerts/model';
import type { Queryable } from '@infra/db';

/** SQL of price alerts (infra/src/db/migrations/0035_price_alerts.sql). Prices in tape units. */

export interface AlertRow {
  id: number;
  user_id: number;
  product_id: string;
  direction: AlertDirection;
  threshold: number;
  created_at: Date;
  fired_at: Date | null;
  fired_seq: number | null;
  fired_ts: number | null;
  fired_price: number | null;
}

const columns =
  'a.id, a.user_id, a.product_id, a.direction, a.threshold, a.created_at, a.fired_at, a.fired_seq, a.fired_ts, a.fired_price';

const asRow = (r: AlertRow): AlertRow => ({
  ...r,
  id: Number(r.id),
  user_id: Number(r.user_id),
  threshold: Number(r.threshold),
  fired_seq: r.fired_seq === null ? null : Number(r.fired_seq),
  fired_ts: r.fired_ts === null ? null : Number(r.fired_ts),
  fired_price: r.fired_price === null ? null : Number(r.fired_price),
});

/** Whether any alert is pending (one probe of the partial index price_alerts_pending). */
export async function anyPending(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ any: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM price_alerts WHERE fired_at IS NULL) AS any',
  );
  return rows[0]!.any;
}

/** The product's last recorded tick (the tape's), or null when it has none. */
export async function lastTapeTick(
  db: Queryable,
  productId: string,
): Promise<{ seq: number; price: number } | null> {
  const { rows } = await db.query<{ seq: number; price: number }>(
    'SELECT seq, price FROM ticks WHERE product_id = $1 ORDER BY seq DESC LIMIT 1',
    [productId],
  );
  const r = rows[0];
  return r ? { seq: Number(r.seq), price: Number(r.price) } : null;
}

/**
 * Locks the user's row (so two creations at once count each other) and counts their active
 * alerts. Inside the creating transaction.
 */
export async function lockAndCountActive(tx: Queryable, userId: number): Promise<number> {
  await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
  const { rows } = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM price_alerts WHERE user_id = $1 AND fired_at IS NULL',
    [userId],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function insertAlert(
  tx: Queryable,
  a: {
    userId: number;
    productId: string;
    direction: AlertDirection;
    threshold: number;
    createdSeq: number;
  },
): Promise<AlertRow> {
  const { rows } = await tx.query<AlertRow>(
    `INSERT INTO price_alerts AS a (user_id, product_id, direction, threshold, created_seq, scanned_seq)
     VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${columns}`,
    [a.userId, a.productId, a.direction, a.threshold, a.createdSeq],
  );
  return asRow(rows[0]!);
}

/**
 * The user's alerts (of one product when named): every active one, oldest first, and the
 * `firedLimit` most recently fired within `firedDays` days, newest first.
 */
export async function alertsOf(
  db: Queryable,
  userId: number,
  productId: string | null,
  firedLimit: number,
  firedDays: number,
): Promise<{ active: AlertRow[]; fired: AlertRow[] }> {
  const [active, fired] = await Promise.all([
    db.query<AlertRow>(
      `SELECT ${columns} FROM price_alerts a
       WHERE a.user_id = $1 AND a.fired_at IS NULL AND ($2::text IS NULL OR a.product_id = $2)
       ORDER BY a.id`,
      [userId, productId],
    ),
    db.query<AlertRow>(
      `SELECT ${columns} FROM price_alerts a
       WHERE a.user_id = $1 AND a.fired_at IS NOT NULL AND ($2::text IS NULL OR a.product_id = $2)
         AND a.fired_at > now() - make_interval(days => $4::int)
       ORDER BY a.fired_at DESC, a.id DESC LIMIT $3`,
      [userId, productId, firedLimit, firedDays],
    ),
  ]);
  return { active: active.rows.map(asRow), fired: fired.rows.map(asRow) };
}

/** Deletes one of the user's alerts; false when the user has no alert of that id. */
export async function deleteAlert(db: Queryable, userId: number, id: string): Promise<boolean> {
  const { rows } = await db.query(
    'DELETE FROM price_alerts WHERE id = $1::bigint AND user_id = $2 RETURNING id',
    [id, userId],
  );
  return rows.length > 0;
}

/**
 * Fires, in one statement, up to `limit` pending alerts whose product's tape holds a crossing tick
 * after the alert's creation: for each, the first such tick by seq (a LATERAL walk of the tape's
 * primary key from the alert's scanned_seq). The UPDATE is conditional (fired_at IS NULL): when two
 * processes evaluate at once, the second one's update of a row the first fired re-checks that
 * condition on the committed row and skips it, so each alert fires once.
 */
export async function fireCrossed(tx: Queryable, limit: number): Promise<AlertRow[]> {
  const { rows } = await tx.query<AlertRow>(
    `WITH hit AS (
       SELECT p.id, t.seq, t.ts, t.price
       FROM price_alerts p
       CROSS JOIN LATERAL (
         SELECT k.seq, k.ts, k.price FROM ticks k
         WHERE k.product_id = p.product_id AND k.seq > p.scanned_seq
           AND CASE WHEN p.direction = 'above' THEN k.price >= p.threshold
                    ELSE k.price <= p.threshold END
         ORDER BY k.seq
         LIMIT 1
       ) t
       WHERE p.fired_at IS NULL
       ORDER BY p.id
       LIMIT $1
     )
     UPDATE price_alerts a
     SET fired_at = now(), fired_seq = hit.seq, fired_ts = hit.ts, fired_price = hit.price
     FROM hit
     WHERE a.id = hit.id AND a.fired_at IS NULL
     RETURNING ${columns}`,
    [limit],
  );
  return rows.map(asRow).sort((x, y) => x.id - y.id);
}

/**
 * Moves pending alerts' scanned_seq up to their product's last tick when no tick in between
 * crosses them, so the firing statement's walk starts near the tape's end. Conditional like the
 * firing: a row fired meanwhile is skipped; a crossing tick in the range leaves the row alone.
 */
export async function advanceScanned(db: Queryable): Promise<number> {
  const { rows } = await db.query(
    `UPDATE price_alerts a SET scanned_seq = m.seq
     FROM (SELECT DISTINCT product_id FROM price_alerts WHERE fired_at IS NULL) p
     CROSS JOIN LATERAL (
       SELECT k.seq FROM ticks k WHERE k.product_id = p.product_id ORDER BY k.seq DESC LIMIT 1
     ) m
     WHERE a.product_id = p.product_id AND a.fired_at IS NULL AND m.seq > a.scanned_seq
       AND NOT EXISTS (
         SELECT 1 FROM ticks k
         WHERE k.product_id = a.product_id AND k.seq > a.scanned_seq AND k.seq <= m.seq
           AND CASE WHEN a.direction = 'above' THEN k.price >= a.threshold
                    ELSE k.price <= a.threshold END
       )
     RETURNING a.id`,
  );
  return rows.length;
}
