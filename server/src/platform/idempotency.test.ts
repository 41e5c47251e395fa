import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { createIdempotencyPruner, idempotent, pruneIdempotencyKeys } from './idempotency';

describe.each(dbDrivers())('idempotency keys are pruned (%s)', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(kind);
  });
  afterAll(() => t.drop());
  beforeEach(async () => {
    await t.db.query('DELETE FROM idempotency_keys');
  });

  /** A stored key of user 1, created `hoursAgo` before the database's now. */
  const keyAged = (key: string, hoursAgo: number) =>
    t.db.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash, status, body, created_at)
       VALUES (1, $1, 'h', 201, '{}', now() - make_interval(secs => $2::double precision * 3600))`,
      [key, hoursAgo],
    );
  const keys = async () =>
    (await t.db.query<{ key: string }>('SELECT key FROM idempotency_keys ORDER BY key')).rows.map(
      (r) => r.key,
    );

  it('removes keys older than 48 hours and keeps the rest, in batches', async () => {
    for (const [key, hours] of [
      ['a-old', 48.01],
      ['b-old', 72],
      ['c-old', 24 * 30],
      ['d-47h', 47.9],
      ['e-23h', 23],
      ['f-now', 0],
    ] as const)
      await keyAged(key, hours);
    expect(await pruneIdempotencyKeys(t.db, { batchSize: 2 })).toBe(3);
    expect(await keys()).toEqual(['d-47h', 'e-23h', 'f-now']);
    expect(await pruneIdempotencyKeys(t.db)).toBe(0);
  });

  it('never keeps a key less than the 24 hours the contract promises', async () => {
    await keyAged('fresh', 23.9);
    await keyAged('day-old', 24.1);
    expect(await pruneIdempotencyKeys(t.db, { retentionHours: 1 })).toBe(1);
    expect(await keys()).toEqual(['fresh']);
  });

  it('a recent key still replays after pruning; a pruned one runs as a new request', async () => {
    let runs = 0;
    const run = () =>
      idempotent(t.db, { userId: 1, key: 'k-recent', request: { amount: 1 } }, () => {
        runs++;
        return Promise.resolve({ status: 201, body: { run: runs } });
      });
    expect(await run()).toMatchObject({ body: { run: 1 }, replayed: false });
    await t.db.query(
      "UPDATE idempotency_keys SET created_at = now() - interval '47 hours' WHERE key = 'k-recent'",
    );
    await pruneIdempotencyKeys(t.db);
    expect(await run()).toMatchObject({ body: { run: 1 }, replayed: true });
    await t.db.query(
      "UPDATE idempotency_keys SET created_at = now() - interval '49 hours' WHERE key = 'k-recent'",
    );
    await pruneIdempotencyKeys(t.db);
    expect(await run()).toMatchObject({ body: { run: 2 }, replayed: false });
  });

  it('the schedule prunes at start and again on every interval, and logs what it removed', async () => {
    const lines: { msg: string; removed?: number }[] = [];
    const log = pino({ level: 'debug' }, { write: (s: string) => lines.push(JSON.parse(s)) });
    await keyAged('old-1', 50);
    await keyAged('kept', 1);
    const pruner = createIdempotencyPruner({ db: t.db, log });
    pruner.start(100);
    try {
      await vi.waitFor(async () => expect(await keys()).toEqual(['kept']), { timeout: 20_000 });
      // A key that ages past the limit later goes on a later run, without anyone asking.
      await keyAged('old-2', 60);
      await vi.waitFor(async () => expect(await keys()).toEqual(['kept']), { timeout: 20_000 });
    } finally {
      await pruner.stop();
    }
    const pruned = lines.filter((l) => l.msg === 'idempotency keys pruned');
    expect(pruned.filter((l) => l.removed === 1)).toHaveLength(2);
    expect(pruned.length).toBeGreaterThanOrEqual(2);
  });
});
