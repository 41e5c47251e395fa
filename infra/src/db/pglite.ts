import fs from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';
import { parseInt8, withRetry, type Db, type Queryable } from './db';

/** How often the embedded database looks for tables whose statistics are behind (see below). */
export const PGLITE_ANALYZE_EVERY_MS = 60_000;

/**
 * The tables of the current schema that have grown by a fifth (or from nothing to two pages or
 * more) since their statistics were taken: ANALYZE records the page count it saw in relpages.
 */
const grownTables = `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind = 'r' AND n.nspname = current_schema()
    AND pg_relation_size(c.oid) / 8192 >= greatest(2, c.relpages * 1.2)`;

/**
 * PGlite: PostgreSQL compiled to WASM, in this process. One connection, so transactions are
 * serialised by PGlite's own lock; `dataDir` undefined means in memory (tests).
 *
 * PGlite has no autovacuum, and its one connection keeps the plans of foreign-key checks,
 * triggers and PL/pgSQL functions for its whole life: plans made while a table was nearly empty
 * would scan it whole for ever after. So every `analyzeEveryMs` it analyzes the tables that have
 * grown since their last statistics, one at a time (other statements run in between), which also
 * makes those plans be made again (DECISIONS.md, Placements at 1 000 a second).
 *
 * `from`: a cluster to start from (PGlite's `dumpDataDir` tar) instead of a new one: a new one
 * runs initdb, which takes seconds (the tests start from one migrated copy).
 */
export async function createPgliteDb(
  dataDir?: string,
  { analyzeEveryMs = PGLITE_ANALYZE_EVERY_MS, from }: { analyzeEveryMs?: number; from?: Blob } = {},
): Promise<Db> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir, {
    parsers: { [types.INT8]: parseInt8 },
    ...(from ? { loadDataDir: from } : {}),
  });
  // Each round waits for the one before it.
  let analyze: NodeJS.Timeout;
  const analyzeGrown = async () => {
    const { rows } = await db.query<{ name: string }>(grownTables);
    for (const { name } of rows) await db.query(`ANALYZE ${name}`);
  };
  const analyzeLater = () => {
    analyze = setTimeout(() => {
      void analyzeGrown()
        .catch(() => undefined) // closed meanwhile: close() has cleared the next round
        .then(() => !db.closed && analyzeLater());
    }, analyzeEveryMs);
    analyze.unref();
  };
  analyzeLater();

  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async <R>(sql: string, params?: readonly unknown[]) => {
      const res = await q.query<R>(sql, params as unknown[] | undefined);
      // Like pg: a statement that returns rows counts them; others count the rows they changed.
      return {
        rows: res.rows,
        rowCount: res.fields.length > 0 ? res.rows.length : (res.affectedRows ?? 0),
      };
    },
    exec: async (sql: string) => {
      await q.exec(sql);
    },
  });
  const root = wrap(db);

  return {
    kind: 'pglite',
    query: root.query,
    exec: root.exec,
    async transaction(fn, opts) {
      return withRetry(opts?.attempts ?? 5, () =>
        db.transaction(async (tx) => {
          if (opts?.isolation)
            await tx.query(`SET TRANSACTION ISOLATION LEVEL ${opts.isolation.toUpperCase()}`);
          return fn(wrap(tx));
        }),
      );
    },
    async ping() {
      try {
        await db.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => {
      clearTimeout(analyze);
      return db.close();
    },
  };
}
