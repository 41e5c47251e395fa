import type { Queryable } from '@infra/db';
import { parseInt8 } from '@infra/db/db';

/** A stored drawing: its points as the database holds them (prices as numeric text). */
export interface DrawingRow {
  id: string;
  kind: 'hline' | 'trend';
  points: { time: number; price: string }[];
  createdAt: number;
}

interface Raw {
  id: string;
  kind: 'hline' | 'trend';
  t1: string;
  p1: string;
  t2: string | null;
  p2: string | null;
  created_ms: string;
}

const columns = `id::text, kind, t1::text, p1::text, t2::text, p2::text,
  (extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms`;

const toRow = (r: Raw): DrawingRow => ({
  id: r.id,
  kind: r.kind,
  points: [
    { time: parseInt8(r.t1), price: r.p1 },
    ...(r.t2 !== null && r.p2 !== null ? [{ time: parseInt8(r.t2), price: r.p2 }] : []),
  ],
  createdAt: parseInt8(r.created_ms),
});

/** A user's drawings on a product, the oldest first. */
export async function drawingsOf(
  db: Queryable,
  userId: number,
  productId: string,
): Promise<DrawingRow[]> {
  const { rows } = await db.query<Raw>(
    `SELECT ${columns} FROM chart_drawings WHERE user_id = $1 AND product_id = $2 ORDER BY id`,
    [userId, productId],
  );
  return rows.map(toRow);
}

/**
 * Holds the user's drawings on a product until the transaction ends, so two additions at once
 * count one after the other (the cap holds under concurrency).
 */
export async function lockProduct(tx: Queryable, userId: number, productId: string) {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `chart_drawings:${userId}:${productId}`,
  ]);
}

export async function countOf(tx: Queryable, userId: number, productId: string): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM chart_drawings WHERE user_id = $1 AND product_id = $2',
    [userId, productId],
  );
  return rows[0]?.n ?? 0;
}

/** Adds a drawing; null when the same one (kind and points) is there already. */
export async function insertDrawing(
  tx: Queryable,
  userId: number,
  productId: string,
  kind: 'hline' | 'trend',
  points: readonly { time: number; price: string }[],
): Promise<DrawingRow | null> {
  const [a, b] = points;
  const { rows } = await tx.query<Raw>(
    `INSERT INTO chart_drawings (user_id, product_id, kind, t1, p1, t2, p2)
     VALUES ($1, $2, $3, $4, $5::numeric, $6, $7::numeric)
     ON CONFLICT DO NOTHING
     RETURNING ${columns}`,
    [userId, productId, kind, a!.time, a!.price, b?.time ?? null, b?.price ?? null],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** Removes one of the user's drawings; returns its product, or null when the user has no such one. */
export async function deleteDrawing(
  db: Queryable,
  userId: number,
  id: string,
): Promise<string | null> {
  const { rows } = await db.query<{ product_id: string }>(
    'DELETE FROM chart_drawings WHERE id = $1 AND user_id = $2 RETURNING product_id',
    [id, userId],
  );
  return rows[0]?.product_id ?? null;
}

/** Removes all the user's drawings on a product; returns how many there were. */
export async function deleteAll(db: Queryable, userId: number, productId: string) {
  const { rowCount } = await db.query(
    'DELETE FROM chart_drawings WHERE user_id = $1 AND product_id = $2',
    [userId, productId],
  );
  return rowCount;
}
