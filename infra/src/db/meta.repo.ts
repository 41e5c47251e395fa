import type { Queryable } from './db';

/** Platform key/value settings (table app_meta). */
export async function getMeta(db: Queryable, key: string): Promise<string | null> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM app_meta WHERE key = $1', [
    key,
  ]);
  return rows[0]?.value ?? null;
}

export async function setMeta(db: Queryable, key: string, value: string): Promise<void> {
  await db.query(
    `INSERT INTO app_meta (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [key, value],
  );
}

/** Inserts only when absent; returns the value that is stored afterwards (first writer wins). */
export async function setMetaIfAbsent(db: Queryable, key: string, value: string): Promise<string> {
  await db.query('INSERT INTO app_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
    key,
    value,
  ]);
  return (await getMeta(db, key)) ?? value;
}
