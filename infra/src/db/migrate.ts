import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db';

export const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any 64-bit constant shared by every process that migrates this database. */
const MIGRATION_LOCK = 7_245_019_331;

export interface Migration {
  version: string;
  sql: string;
}

/** Versioned files `NNNN_name.sql`, applied in name order. */
export function readMigrations(dir = migrationsDir): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: f.replace(/\.sql$/, ''),
      sql: fs.readFileSync(path.join(dir, f), 'utf8'),
    }));
}

/**
 * Applies pending migrations, each in its own transaction together with its bookkeeping row.
 * An advisory lock makes concurrent starts (several api processes) apply each file once.
 * Returns the versions it applied.
 */
export async function migrate(db: Db, migrations = readMigrations()): Promise<string[]> {
  // Under the lock too: concurrent `CREATE TABLE IF NOT EXISTS` can still collide in PostgreSQL.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const { rowCount } = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [
        m.version,
      ]);
      if (rowCount > 0) return false;
      // A migration may rewrite a large table: the pool's statement timeout is not for it.
      await tx.exec('SET LOCAL statement_timeout = 0');
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [m.version]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}
