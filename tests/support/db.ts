import { randomBytes } from 'node:crypto';
import { MessageChannel } from 'node:worker_threads';
import pg from 'pg';
import type { Db } from '@infra/db';
import { createPgliteDb } from '@infra/db/pglite';
import { createPostgresDb } from '@infra/db/postgres';
import { migrate } from '@infra/db/migrate';
import { portDb } from '@infra/db/ports/port-db';
import { serveDb } from '@infra/db/ports/serve';
import { migratedTemplate } from './pglite-template';

/**
 * `pglite-served`: PGlite served through MessagePorts (`serveDb` / `portDb`), as the embedded app
 * runs it on a thread of its own; here both ends share the test's thread.
 */
export type DriverKind = 'pglite' | 'postgres' | 'pglite-served';

/** The database drivers this run covers: PGlite always, PostgreSQL when DATABASE_URL is set. */
export function dbDrivers(): DriverKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDb {
  db: Db;
  /** Connection settings another process can use to reach the same database (PostgreSQL only). */
  url?: string;
  schema?: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database of the given kind: PGlite in memory, or a new schema on PostgreSQL
 * (each test file its own, dropped afterwards). Migrated unless `migrated` is false; a migrated
 * PGlite is loaded from the run's one migrated copy (pglite-template.ts), not made anew.
 */
export async function openTestDb(kind: DriverKind, { migrated = true } = {}): Promise<TestDb> {
  if (kind === 'pglite') {
    const db = await createPgliteDb(undefined, migrated ? { from: await migratedTemplate() } : {});
    return { db, drop: () => db.close() };
  }
  if (kind === 'pglite-served') {
    const from = migrated ? await migratedTemplate() : undefined;
    const engine = await createPgliteDb(undefined, from ? { from } : {});
    const served = serveDb(engine);
    const { port1, port2 } = new MessageChannel();
    served.connect(port2, 'requests');
    const db = portDb(port1);
    return {
      db,
      async drop() {
        await db.close();
        await served.close();
        await engine.close();
      },
    };
  }
  const url = process.env.DATABASE_URL!;
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = createPostgresDb({ url, schema, max: 12 });
  if (migrated) await migrate(db);
  return {
    db,
    url,
    schema,
    async drop() {
      await db.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

/** DATABASE_URL pointing at one schema, for child processes (pg reads `options` from the URL). */
export function urlWithSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}
