import pg from 'pg';
import {
  beginStatement,
  parseInt8,
  withRetry,
  type Db,
  type Queryable,
  type QueryResult,
} from './db';

const INT8 = 20;

export interface PostgresOptions {
  url: string;
  /** Schema to use as search_path (tests run each in their own). */
  schema?: string;
  max?: number;
}

/** PostgreSQL through a `pg` pool. */
export function createPostgresDb(options: PostgresOptions): Db {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
      oid === INT8
        ? parseInt8
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    types,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);

  const run = async <R>(
    client: pg.Pool | pg.PoolClient,
    sql: string,
    params?: readonly unknown[],
  ) => {
    const res = await client.query(sql, params as unknown[] | undefined);
    return { rows: res.rows as R[], rowCount: res.rowCount ?? 0 } satisfies QueryResult<R>;
  };

  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async transaction(fn, opts) {
      return withRetry(opts?.attempts ?? 5, async () => {
        const client = await pool.connect();
        const tx: Queryable = {
          query: (sql, params) => run(client, sql, params),
          exec: async (sql) => void (await client.query(sql)),
        };
        try {
          await client.query(beginStatement(opts));
          const result = await fn(tx);
          await client.query('COMMIT');
          return result;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          client.release();
        }
      });
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async ping() {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    close: () => pool.end(),
  };
}
