import fs from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';
import { parseInt8, withRetry, type Db, type Queryable } from './db';

/**
 * PGlite: PostgreSQL compiled to WASM, in this process. One connection, so transactions are
 * serialised by PGlite's own lock; `dataDir` undefined means in memory (tests).
 */
export async function createPgliteDb(dataDir?: string): Promise<Db> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir, { parsers: { [types.INT8]: parseInt8 } });

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
    close: () => db.close(),
  };
}
