import { describe, expect, it } from 'vitest';
import { openTestDb } from '@tests/support/db';
import { createPostgresDb } from './postgres';
import { migrate, readMigrations } from './migrate';

describe('PostgreSQL specifics', () => {
  it('concurrent migrators apply each migration once', async () => {
    const t = await openTestDb('postgres', { migrated: false });
    const others = [1, 2, 3].map(() => createPostgresDb({ url: t.url!, schema: t.schema! }));
    try {
      const results = await Promise.all([t.db, ...others].map((db) => migrate(db)));
      expect(results.flat().sort()).toEqual(readMigrations().map((m) => m.version));
    } finally {
      await Promise.all(others.map((db) => db.close()));
      await t.drop();
    }
  });

  it('a real serialization conflict between two transactions is retried to success', async () => {
    const t = await openTestDb('postgres');
    try {
      await t.db.exec(
        'CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL); INSERT INTO counter VALUES (1, 0)',
      );
      const bump = () =>
        t.db.transaction(
          async (tx) => {
            const { rows } = await tx.query<{ n: number }>('SELECT n FROM counter WHERE id = 1');
            await new Promise((r) => setTimeout(r, 20));
            await tx.query('UPDATE counter SET n = $1 WHERE id = 1', [rows[0]!.n + 1]);
          },
          { isolation: 'serializable', attempts: 20 },
        );
      await Promise.all(Array.from({ length: 5 }, bump));
      const { rows } = await t.db.query<{ n: number }>('SELECT n FROM counter WHERE id = 1');
      expect(rows[0]!.n).toBe(5);
    } finally {
      await t.drop();
    }
  });
});
