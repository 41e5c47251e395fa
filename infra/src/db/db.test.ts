import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPgliteDb } from './pglite';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { migrate, readMigrations } from './migrate';
import { getMeta, setMeta, setMetaIfAbsent } from './meta.repo';

// PGlite served through ports too: the embedded app's database runs on a thread of its own.
describe.each([...dbDrivers(), 'pglite-served' as const])('database layer on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(kind);
    await t.db.exec('CREATE TABLE probe (id int PRIMARY KEY, big bigint NOT NULL DEFAULT 0)');
  });
  afterAll(() => t.drop());

  it('applies every migration once and records it', async () => {
    const { rows } = await t.db.query<{ version: string }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((r) => r.version)).toEqual(readMigrations().map((m) => m.version));
    expect(await migrate(t.db)).toEqual([]);
  });

  it('commits a transaction as a whole', async () => {
    await t.db.transaction(async (tx) => {
      await tx.query('INSERT INTO probe (id) VALUES (1)');
      await tx.query('INSERT INTO probe (id) VALUES (2)');
    });
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM probe WHERE id IN (1, 2)',
    );
    expect(rows[0]!.n).toBe(2);
  });

  it('rolls a failed transaction back entirely', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('INSERT INTO probe (id) VALUES (3)');
        await tx.query('INSERT INTO probe (id) VALUES (3)'); // duplicate key
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rowCount } = await t.db.query('SELECT 1 FROM probe WHERE id = 3');
    expect(rowCount).toBe(0);
  });

  it('retries the whole function on a serialization failure, discarding the failed attempt', async () => {
    let attempts = 0;
    await t.db.transaction(async (tx) => {
      attempts++;
      await tx.query('INSERT INTO probe (id) VALUES (10)');
      if (attempts === 1)
        throw Object.assign(new Error('could not serialize access'), { code: '40001' });
    });
    expect(attempts).toBe(2);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM probe WHERE id = 10',
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('gives up after the allowed attempts and does not retry other errors', async () => {
    let attempts = 0;
    await expect(
      t.db.transaction(
        () => {
          attempts++;
          return Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
        },
        { attempts: 3 },
      ),
    ).rejects.toMatchObject({ code: '40P01' });
    expect(attempts).toBe(3);
    attempts = 0;
    await expect(
      t.db.transaction(() => {
        attempts++;
        return Promise.reject(new Error('plain'));
      }),
    ).rejects.toThrow('plain');
    expect(attempts).toBe(1);
  });

  it('reads bigint columns as exact numbers', async () => {
    await t.db.query('INSERT INTO probe (id, big) VALUES (20, $1)', [2 ** 53 - 1]);
    const { rows } = await t.db.query<{ big: number }>('SELECT big FROM probe WHERE id = 20');
    expect(rows[0]!.big).toBe(2 ** 53 - 1);
    await t.db.query('INSERT INTO probe (id, big) VALUES (21, 9007199254740993)');
    await expect(t.db.query('SELECT big FROM probe WHERE id = 21')).rejects.toThrow(RangeError);
  });

  it('keeps platform settings, first writer wins on setIfAbsent', async () => {
    expect(await getMeta(t.db, 'k')).toBeNull();
    expect(await setMetaIfAbsent(t.db, 'k', 'one')).toBe('one');
    expect(await setMetaIfAbsent(t.db, 'k', 'two')).toBe('one');
    await setMeta(t.db, 'k', 'three');
    expect(await getMeta(t.db, 'k')).toBe('three');
  });

  it('answers ping', async () => {
    expect(await t.db.ping()).toBe(true);
  });
});

/**
 * PGlite has no autovacuum: the driver refreshes the planner statistics itself, so plans kept by
 * its one connection follow the tables' growth.
 */
describe('the embedded database keeps its statistics', () => {
  it('analyzes a table on its own each time it has grown', async () => {
    const db = await createPgliteDb(undefined, { analyzeEveryMs: 50 });
    try {
      await db.exec('CREATE TABLE grows (id int PRIMARY KEY)');
      const estimate = async () =>
        (
          await db.query<{ n: number }>(
            "SELECT reltuples::int AS n FROM pg_class WHERE relname = 'grows'",
          )
        ).rows[0]!.n;
      await db.query('INSERT INTO grows SELECT generate_series(1, 5000)');
      await vi.waitFor(async () => expect(await estimate()).toBe(5000), { timeout: 10_000 });
      await db.query('INSERT INTO grows SELECT generate_series(5001, 20000)');
      await vi.waitFor(async () => expect(await estimate()).toBe(20_000), { timeout: 10_000 });
    } finally {
      await db.close();
    }
  });
});
