import type { Db } from './db';
import { migrate } from './migrate';
import { createPgliteDb } from './pglite';
import { createPostgresDb } from './postgres';

export type { Db, Queryable } from './db';
export { isDatabaseOutage } from './db';

/** PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR/db; migrated before use. */
export async function openDatabase(config: {
  DATABASE_URL?: string;
  dbDir: string;
  DATABASE_POOL_MAX?: number;
  DATABASE_CONNECT_TIMEOUT_MS?: number;
  DATABASE_STATEMENT_TIMEOUT_MS?: number;
}): Promise<Db> {
  const db = config.DATABASE_URL
    ? createPostgresDb({
        url: config.DATABASE_URL,
        max: config.DATABASE_POOL_MAX,
        connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      })
    : await createPgliteDb(config.dbDir);
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => undefined); // a caller that retries must not leak a pool
    throw err;
  }
  return db;
}
