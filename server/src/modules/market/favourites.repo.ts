import type { Queryable } from '@infra/db';

/** A user's favourite product ids, in the order they were marked. */
export async function favouritesOf(db: Queryable, userId: number): Promise<string[]> {
  const { rows } = await db.query<{ product_id: string }>(
    'SELECT product_id FROM favourites WHERE user_id = $1 ORDER BY created_at, product_id',
    [userId],
  );
  return rows.map((r) => r.product_id);
}

/** Marks a favourite; marking one twice keeps the first mark (and its place). */
export async function addFavourite(
  db: Queryable,
  userId: number,
  productId: string,
): Promise<void> {
  await db.query(
    'INSERT INTO favourites (user_id, product_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [userId, productId],
  );
}

export async function removeFavourite(
  db: Queryable,
  userId: number,
  productId: string,
): Promise<void> {
  await db.query('DELETE FROM favourites WHERE user_id = $1 AND product_id = $2', [
    userId,
    productId,
  ]);
}
