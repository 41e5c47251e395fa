import type { MessagePort } from 'node:worker_threads';
import { withRetry, type Db, type Queryable, type QueryResult } from '../db';
import { fromWire, type DbAnswer, type DbRequest } from './protocol';

type Outgoing = DbRequest extends infer R ? (R extends DbRequest ? Omit<R, 'id'> : never) : never;

/**
 * A `Db` whose statements run on a database served on another thread (`serveDb`), through
 * `port`. Transactions are interactive, as on PostgreSQL: BEGIN, the function's statements, then
 * COMMIT or ROLLBACK; the serving side holds the database for them meanwhile.
 */
export function portDb(port: MessagePort, kind: Db['kind'] = 'pglite'): Db {
  const pending = new Map<number, { resolve: (a: DbAnswer) => void }>();
  let ids = 0;
  let txIds = 0;
  let closed = false;
  port.on('message', (a: DbAnswer) => {
    const p = pending.get(a.id);
    if (!p) return;
    pending.delete(a.id);
    p.resolve(a);
  });
  port.on('close', () => {
    closed = true;
    for (const [id, p] of pending)
      p.resolve({ id, ok: false, error: { message: 'the database thread is gone' } });
    pending.clear();
  });

  const call = (req: Outgoing): Promise<DbAnswer> => {
    if (closed) return Promise.reject(new Error('the database connection is closed'));
    const id = ++ids;
    return new Promise((resolve) => {
      pending.set(id, { resolve });
      port.postMessage({ ...req, id });
    });
  };
  const must = async (req: Outgoing) => {
    const a = await call(req);
    if (!a.ok) throw fromWire(a.error);
    return a;
  };
  const queryable = (tx?: number): Queryable => ({
    query: async <R>(sql: string, params?: readonly unknown[]) => {
      const a = await must({ op: 'query', sql, params, tx });
      return { rows: (a.rows ?? []) as R[], rowCount: a.rowCount ?? 0 } satisfies QueryResult<R>;
    },
    exec: async (sql: string) => void (await must({ op: 'exec', sql, tx })),
  });
  const root = queryable();

  return {
    kind,
    query: root.query,
    exec: root.exec,
    transaction(fn, opts) {
      return withRetry(opts?.attempts ?? 5, async () => {
        const tx = ++txIds;
        await must({ op: 'begin', tx, isolation: opts?.isolation });
        let result;
        try {
          result = await fn(queryable(tx));
        } catch (err) {
          await call({ op: 'rollback', tx }).catch(() => undefined);
          throw err;
        }
        await must({ op: 'commit', tx });
        return result;
      });
    },
    async ping() {
      try {
        return (await call({ op: 'ping' })).ok;
      } catch {
        return false;
      }
    },
    close() {
      closed = true;
      port.close();
      return Promise.resolve();
    },
  };
}
