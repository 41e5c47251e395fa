import type { MessagePort } from 'node:worker_threads';
import type { Db, Queryable } from '../db';
import { toWire, type DbAnswer, type DbRequest } from './protocol';
import { statementCounter } from './statement-count';

/**
 * The lanes of a served database, first served first: the simulator's tape and lease (`tape`),
 * then settlement and the periodic jobs (`system`), then everything requests ask (`requests`).
 * PGlite runs one statement at a time; the lanes decide which waiting one runs next, so no amount
 * of queued request work can hold back a tape write by more than the statement (or transaction)
 * under way.
 */
export const dbLanes = ['tape', 'system', 'requests'] as const;
export type DbLane = (typeof dbLanes)[number];

interface Job {
  conn: Conn;
  req: Extract<DbRequest, { op: 'query' | 'exec' | 'begin' | 'ping' }>;
}

interface Conn {
  port: MessagePort;
  lane: number;
  /** Statements of this connection's open transaction, waiting for the transaction's turn. */
  inbox: DbRequest[];
  wake: (() => void) | null;
  /** The transaction this connection holds the database with, if any. */
  tx: number | null;
  /** A transaction rolled back for idling, whose late statements are told so. */
  expired: number | null;
}

export interface ServedDb {
  /** Serves the database to the client at the other end of `port`, in `lane`. */
  connect(port: MessagePort, lane: DbLane): void;
  /** Statements waiting, by lane (a figure for metrics and tests). */
  waiting(): Record<DbLane, number>;
  /** Stops serving: waits for the statement under way, then closes every port. */
  close(): Promise<void>;
}

class Rollback extends Error {}

/**
 * Serves one `Db` (PGlite, which has one connection) to clients on other threads, one statement
 * or transaction at a time, the most urgent lane first. A transaction holds the database from its
 * BEGIN to its COMMIT or ROLLBACK; one whose client sends nothing for `txIdleMs` is rolled back
 * (SQLSTATE 25P03, as PostgreSQL's idle_in_transaction_session_timeout), so a stuck client cannot
 * hold the tape back for ever.
 */
export function serveDb(
  db: Db,
  { txIdleMs = 5000, countStatementsS = 0 }: { txIdleMs?: number; countStatementsS?: number } = {},
): ServedDb {
  const queues: Job[][] = dbLanes.map(() => []);
  const conns = new Set<Conn>();
  let running: Promise<void> | null = null;
  let closed = false;
  const count = countStatementsS > 0 ? statementCounter(countStatementsS) : null;

  const answer = (conn: Conn, a: DbAnswer) => conn.port.postMessage(a);
  const fail = (conn: Conn, id: number, err: unknown) =>
    answer(conn, { id, ok: false, error: toWire(err) });

  const next = (): Job | undefined => {
    for (const q of queues) if (q.length) return q.shift();
    return undefined;
  };

  /** One statement, on the database or inside a transaction. */
  const run = async (q: Queryable, conn: Conn, req: DbRequest) => {
    if (count && (req.op === 'query' || req.op === 'exec')) count(dbLanes[conn.lane]!, req.sql);
    try {
      if (req.op === 'query') {
        const r = await q.query(req.sql, req.params);
        answer(conn, { id: req.id, ok: true, rows: r.rows, rowCount: r.rowCount });
      } else if (req.op === 'exec') {
        await q.exec(req.sql);
        answer(conn, { id: req.id, ok: true });
      } else if (req.op === 'ping') {
        if (await db.ping()) answer(conn, { id: req.id, ok: true });
        else fail(conn, req.id, new Error('the database does not answer'));
      }
    } catch (err) {
      fail(conn, req.id, err);
    }
  };

  /** The next statement of the connection's transaction, or null after `txIdleMs` of silence. */
  const nextInTx = (conn: Conn): Promise<DbRequest | null> => {
    const ready = conn.inbox.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        conn.wake = null;
        resolve(null);
      }, txIdleMs);
      conn.wake = () => {
        clearTimeout(timer);
        conn.wake = null;
        resolve(conn.inbox.shift() ?? null);
      };
    });
  };

  const transaction = async (conn: Conn, begin: Extract<DbRequest, { op: 'begin' }>) => {
    conn.tx = begin.tx;
    let end: Extract<DbRequest, { op: 'commit' | 'rollback' }> | null = null;
    try {
      await db.transaction(
        async (tx) => {
          answer(conn, { id: begin.id, ok: true });
          for (;;) {
            const req = await nextInTx(conn);
            if (!req)
              throw Object.assign(new Error('transaction idle too long'), { code: '25P03' });
            if (req.op === 'commit') return void (end = req);
            if (req.op === 'rollback') {
              end = req;
              throw new Rollback();
            }
            await run(tx, conn, req);
          }
        },
        { attempts: 1, isolation: begin.isolation },
      );
      if (end) answer(conn, { id: (end as DbRequest).id, ok: true });
    } catch (err) {
      if (err instanceof Rollback && end) answer(conn, { id: (end as DbRequest).id, ok: true });
      else if (end) fail(conn, (end as DbRequest).id, err);
      else conn.expired = begin.tx; // idled: its late statements are told why (see `receive`)
    } finally {
      conn.tx = null;
      // Whatever reached the inbox after the end belongs to no transaction any more.
      for (const late of conn.inbox.splice(0))
        fail(conn, late.id, new Error('the transaction has ended'));
    }
  };

  const pump = () => {
    if (running || closed) return;
    running = (async () => {
      for (let job = next(); job; job = next()) {
        if (job.req.op === 'begin') await transaction(job.conn, job.req);
        else await run(db, job.conn, job.req);
        // Let messages that arrived meanwhile join their lanes before choosing the next job.
        await new Promise((r) => setImmediate(r));
      }
    })().finally(() => {
      running = null;
      if (queues.some((q) => q.length)) pump();
    });
  };

  const receive = (conn: Conn, req: DbRequest) => {
    if (closed) return fail(conn, req.id, new Error('the database is closed'));
    if ('tx' in req && req.tx !== undefined && req.op !== 'begin') {
      if (conn.tx !== req.tx)
        return fail(
          conn,
          req.id,
          conn.expired === req.tx
            ? Object.assign(new Error('transaction rolled back: idle too long'), { code: '25P03' })
            : new Error('no such transaction'),
        );
      conn.inbox.push(req);
      conn.wake?.();
      return;
    }
    if (req.op === 'commit' || req.op === 'rollback') return; // handled above
    queues[conn.lane]!.push({ conn, req });
    pump();
  };

  return {
    connect(port, lane) {
      const conn: Conn = {
        port,
        lane: dbLanes.indexOf(lane),
        inbox: [],
        wake: null,
        tx: null,
        expired: null,
      };
      conns.add(conn);
      port.on('message', (req: DbRequest) => receive(conn, req));
      port.on('close', () => conns.delete(conn));
    },
    waiting: () =>
      Object.fromEntries(dbLanes.map((l, i) => [l, queues[i]!.length])) as Record<DbLane, number>,
    async close() {
      closed = true;
      await running;
      for (const c of conns) c.port.close();
      conns.clear();
    },
  };
}
