import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDb } from '../pglite';
import type { Db } from '../db';
import { portDb } from './port-db';
import { serveDb, type DbLane, type ServedDb } from './serve';

/**
 * The embedded database served through ports: the lanes decide which waiting statement runs
 * next, and a transaction whose client goes quiet cannot hold the database for ever.
 */
describe('a database served through ports', () => {
  let engine: Db;
  let served: ServedDb;
  const clients: Db[] = [];
  const client = (lane: DbLane) => {
    const { port1, port2 } = new MessageChannel();
    served.connect(port2, lane);
    const db = portDb(port1);
    clients.push(db);
    return db;
  };

  beforeAll(async () => {
    engine = await createPgliteDb();
    served = serveDb(engine, { txIdleMs: 300 });
    await engine.exec('CREATE TABLE t (id int PRIMARY KEY)');
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await served.close();
    await engine.close();
  });

  it('runs a tape statement before the request statements queued ahead of it', async () => {
    const requests = client('requests');
    const tape = client('tape');
    const order: string[] = [];
    // Each request statement takes a while; fifty of them are queued before the tape's one.
    const heavy = 'SELECT count(*) FROM generate_series(1, 200000)';
    const queued = Array.from({ length: 50 }, (_, i) =>
      requests.query(heavy).then(() => order.push(`request ${i}`)),
    );
    const tapeWrite = tape.query('INSERT INTO t VALUES (1)').then(() => order.push('tape'));
    await Promise.all([...queued, tapeWrite]);
    // At most the statement under way (and one chosen before the tape's message arrived) runs first.
    expect(order.indexOf('tape')).toBeLessThanOrEqual(2);
    expect(served.waiting()).toEqual({ tape: 0, system: 0, requests: 0 });
  });

  it('holds the database for a transaction: other statements wait for its end', async () => {
    const a = client('requests');
    const tape = client('tape');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let begun!: () => void;
    const holding = new Promise<void>((r) => (begun = r));
    const seen: number[] = [];
    const tx = a.transaction(async (q) => {
      await q.query('INSERT INTO t VALUES (2)');
      begun();
      await gate;
      await q.query('INSERT INTO t VALUES (3)');
    });
    // Started while the transaction holds the database: sees both of its rows or neither.
    await holding;
    const read = tape
      .query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id IN (2, 3)')
      .then((r) => seen.push(r.rows[0]!.n));
    release();
    await Promise.all([tx, read]);
    expect(seen).toEqual([2]);
  });

  it('rolls back a transaction whose client goes quiet, and serves the others meanwhile', async () => {
    const quiet = client('requests');
    const other = client('tape');
    let held!: (q: { query: Db['query'] }) => void;
    const inside = new Promise<{ query: Db['query'] }>((r) => (held = r));
    const tx = quiet.transaction(
      async (q) => {
        await q.query('INSERT INTO t VALUES (4)');
        held(q);
        await new Promise((r) => setTimeout(r, 600)); // twice the idle limit of 300 ms
        await q.query('INSERT INTO t VALUES (5)');
      },
      { attempts: 1 },
    );
    await inside;
    // Served once the quiet transaction is rolled back (before it would ever have ended).
    const { rows } = await other.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM t WHERE id IN (4, 5)',
    );
    expect(rows[0]!.n).toBe(0);
    await expect(tx).rejects.toMatchObject({ code: '25P03' });
  });

  it('carries database errors with their SQLSTATE', async () => {
    const db = client('system');
    await db.query('INSERT INTO t VALUES (6)');
    await expect(db.query('INSERT INTO t VALUES (6)')).rejects.toMatchObject({ code: '23505' });
    await expect(db.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
  });
});
