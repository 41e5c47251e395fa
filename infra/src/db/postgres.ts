import { createHash } from 'node:crypto';
import pg from 'pg';
import { parsePgTarget } from './pg-target';
import {
  beginStatement,
  isDatabaseOutage,
  pgErrorCode,
  parseInt8,
  withRetry,
  type Db,
  type Queryable,
  type QueryOptions,
  type QueryResult,
} from './db';

const INT8 = 20;

export interface PostgresOptions {
  /** One host or several (pg-target.ts: `target_session_attrs=read-write` finds the primary). */
  url: string;
  /** Schema to use as search_path (tests run each in their own). */
  schema?: string;
  max?: number;
  /** How long opening a connection may take before it fails (ms). */
  connectTimeoutMs?: number;
  /**
   * The longest a statement may run (ms; PostgreSQL's statement_timeout, and the driver's own
   * limit a little later, for a server that stopped answering).
   */
  statementTimeoutMs?: number;
}

/** Defaults of the pool's limits (docs/OPERATIONS.md, PostgreSQL): none is unbounded. */
export const pgDefaults = { max: 10, connectTimeoutMs: 5000, statementTimeoutMs: 30_000 };

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

/**
 * PostgreSQL through a `pg` pool per host. With several hosts the pool in use is the first that
 * answers (and accepts writes, with `target_session_attrs=read-write`); when its connections
 * fail, or it turns out read-only (a replica, after a promotion elsewhere), the hosts are asked
 * again in the background while the failed requests answer 503 and are retried by their clients.
 */
export function createPostgresDb(options: PostgresOptions): Db {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
      oid === INT8
        ? parseInt8
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const target = parsePgTarget(options.url);
  const limits = { ...pgDefaults, ...definedOnly(options) };
  const poolFor = (url: string) => {
    const pool = new pg.Pool({
      connectionString: url,
      max: limits.max,
      types,
      connectionTimeoutMillis: limits.connectTimeoutMs,
      statement_timeout: limits.statementTimeoutMs,
      // A server that stops answering (a partition) fails the statement a little after it would
      // have timed out there.
      query_timeout: limits.statementTimeoutMs + 5000,
      idle_in_transaction_session_timeout: limits.statementTimeoutMs,
      keepAlive: true,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    return pool;
  };
  const pools = target.hostUrls.map(poolFor);
  let current = 0;
  let pool = pools[0]!;
  let probing: Promise<void> | null = null;
  /** Finds the host to use now: the first that answers and, if asked, accepts writes. */
  const probe = () =>
    (probing ??= (async () => {
      for (let i = 0; i < pools.length; i++) {
        const at = (current + i) % pools.length;
        try {
          const { rows } = await pools[at]!.query<{ ro: string }>('SHOW transaction_read_only');
          if (target.readWrite && rows[0]?.ro === 'on') continue;
          current = at;
          pool = pools[at]!;
          return;
        } catch {
          // this host is away; try the next
        }
      }
    })().finally(() => (probing = null)));
  /** After a failure: with several hosts, look for the one to use (the caller still fails). */
  const failed = (err: unknown) => {
    if (pools.length > 1 && (isDatabaseOutage(err) || pgErrorCode(err) === '25006')) void probe();
    return err;
  };
  // With several hosts, the first statements wait for the first choice.
  let ready: Promise<void> | null = pools.length > 1 ? probe() : null;
  const choose = async () => {
    if (ready) {
      await ready;
      ready = null;
    }
    return pool;
  };

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
    query: async (sql, params, options) => {
      try {
        return await run(await choose(), sql, params, options);
      } catch (err) {
        throw failed(err);
      }
    },
    async transaction(fn, opts) {
      return withRetry(opts?.attempts ?? 5, async () => {
        let client: pg.PoolClient;
        try {
          client = await (await choose()).connect();
        } catch (err) {
          throw failed(err);
        }
        // A connection lost while checked out emits 'error' on its client, which the pool only
        // listens to on idle clients: unheard, it would end the process. The statement in flight
        // fails with it anyway; the client is then released as broken, not reused.
        let lost: Error | undefined;
        const onLost = (err: Error) => void (lost = err);
        client.on('error', onLost);
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
          throw failed(err);
        } finally {
          client.off('error', onLost);
          client.release(lost);
        }
      });
    },
    async exec(sql) {
      try {
        await (await choose()).query(sql);
      } catch (err) {
        throw failed(err);
      }
    },
    async ping() {
      try {
        const { rows } = await (
          await choose()
        ).query<{ ro: boolean }>('SELECT pg_is_in_recovery() AS ro');
        // A replica answers, but a writer cannot use it: look for the primary.
        if (target.readWrite && rows[0]?.ro) {
          if (pools.length > 1) void probe();
          return false;
        }
        return true;
      } catch (err) {
        failed(err);
        return false;
      }
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    close: async () => {
      await Promise.all(pools.map((p) => p.end()));
    },
  };
}

/** The options that are set (an explicit undefined must not override a default). */
function definedOnly(o: PostgresOptions): Partial<typeof pgDefaults> {
  const out: Partial<typeof pgDefaults> = {};
  if (o.max !== undefined) out.max = o.max;
  if (o.connectTimeoutMs !== undefined) out.connectTimeoutMs = o.connectTimeoutMs;
  if (o.statementTimeoutMs !== undefined) out.statementTimeoutMs = o.statementTimeoutMs;
  return out;
}
