import type { Queryable } from '@infra/db';

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/webp';

export interface UploadRow {
  id: string;
  owner_id: number;
  mime: ImageMime;
  size: number;
  created_at: Date;
}

export async function insertUpload(
  db: Queryable,
  u: { id: string; ownerId: number; mime: ImageMime; size: number },
): Promise<void> {
  await db.query('INSERT INTO uploads (id, owner_id, mime, size) VALUES ($1, $2, $3, $4)', [
    u.id,
    u.ownerId,
    u.mime,
    u.size,
  ]);
}

export async function uploadById(db: Queryable, id: string): Promise<UploadRow | null> {
  const { rows } = await db.query<UploadRow>(
    'SELECT id, owner_id, mime, size, created_at FROM uploads WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}
