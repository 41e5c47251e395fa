import { createHash } from 'node:crypto';
import pg from 'pg';
import {
  beginStatement,
  parseInt8,
  withRetry,
  type Db,
  type Queryable,
  type QueryOptions,
  type QueryResult,
} from './db';

const INT8 = 20;

export interface PostgresOptions {
  url: string;
  /** Schema to use as search_path (tests run each in their own). */
  schema?: string;
  max?: number;
}

/** A prepared statement's name: its text's hash, so one text is prepared once per connection. */
const names = new Map<string, string>();
const statementName = (sql: string) => {
  let name = names.get(sql);
  if (!name) {
    name = `s_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
  }
  return name;
};

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
    options?: QueryOptions,
  ) => {
    const values = params as unknown[] | undefined;
    const res = await client.query(
      options?.prepare ? { name: statementName(sql), text: sql, values } : { text: sql, values },
    );
    return { rows: res.rows as R[], rowCount: res.rowCount ?? 0 } satisfies QueryResult<R>;
  };

  return {
    kind: 'postgres',
    query: (sql, params, options) => run(pool, sql, params, options),
    async transaction(fn, opts) {
      return withRetry(opts?.attempts ?? 5, async () => {
        const client = await pool.connect();
        const tx: Queryable = {
          query: (sql, params, options) => run(client, sql, params, options),
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
