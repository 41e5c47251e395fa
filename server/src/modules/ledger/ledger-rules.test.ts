import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';

/**
 * The database itself keeps the two kinds of money apart: whatever code writes a transfer, one
 * whose legs mix a practice and a real account is refused.
 */
describe.each(dbDrivers())('the ledger on %s refuses to mix practice and real money', (kind) => {
  let t: TestDb;
  let api: TestApi;
  let userId: number;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
    const u = await registerUser(api, 'mixer');
    userId = Number(u.user.id);
    await api.http.get('/api/account/summary').set(u.auth).expect(200);
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const account = async (owner: number | null, kind: string) =>
    (
      await t.db.query<{ id: number }>(
        'SELECT id FROM ledger_accounts WHERE owner_id IS NOT DISTINCT FROM $1 AND kind = $2',
        [owner, kind],
      )
    ).rows[0]!.id;
  const snapshot = async () =>
    (
      await t.db.query<{ s: string }>(
        `SELECT (SELECT count(*) FROM transfers) || '/' || (SELECT count(*) FROM entries) || '/' ||
                (SELECT string_agg(id || ':' || balance, ',' ORDER BY id) FROM ledger_accounts) AS s`,
      )
    ).rows[0]!.s;

  it.each([
    ['a practice transfer with a real leg', 'practice'],
    ['a real transfer with a practice leg', 'real'],
  ])('refuses %s, written by hand in one transaction', async (_name, mode) => {
    const practice = await account(userId, 'practice_available');
    const real = await account(userId, 'available');
    const before = await snapshot();
    await expect(
      t.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: number }>(
          "INSERT INTO transfers (kind, user_id, mode) VALUES ('deposit', $1, $2) RETURNING id",
          [userId, mode],
        );
        const transferId = rows[0]!.id;
        await tx.query(
          `INSERT INTO entries (transfer_id, account_id, amount, balance_after) VALUES
             ($1, $2, -1000, 999000), ($1, $3, 1000, 1000)`,
          [transferId, practice, real],
        );
        await tx.query('UPDATE ledger_accounts SET balance = balance - 1000 WHERE id = $1', [
          practice,
        ]);
        await tx.query('UPDATE ledger_accounts SET balance = balance + 1000 WHERE id = $1', [real]);
      }),
    ).rejects.toThrow(/practice and real money never mix/);
    expect(await snapshot()).toBe(before);
  });

  it('refuses legs written one statement at a time, and a leg moved to the other side later', async () => {
    const practice = await account(userId, 'practice_available');
    const house = await account(null, 'house_trading');
    const before = await snapshot();
    await expect(
      t.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: number }>(
          "INSERT INTO transfers (kind, user_id) VALUES ('order_payout', $1) RETURNING id",
          [userId],
        );
        await tx.query(
          'INSERT INTO entries (transfer_id, account_id, amount, balance_after) VALUES ($1, $2, -5, -5)',
          [rows[0]!.id, house],
        );
        await tx.query(
          'INSERT INTO entries (transfer_id, account_id, amount, balance_after) VALUES ($1, $2, 5, 1000005)',
          [rows[0]!.id, practice],
        );
      }),
    ).rejects.toThrow(/never mix/);
    expect(await snapshot()).toBe(before);
    // An existing practice entry cannot be pointed at a real account, nor its transfer made real.
    await expect(
      t.db.query(
        `UPDATE entries SET account_id = $1 WHERE id = (SELECT min(id) FROM entries WHERE account_id = $2)`,
        [await account(userId, 'available'), practice],
      ),
    ).rejects.toThrow(/never mix/);
    await expect(
      t.db.query("UPDATE transfers SET mode = 'real' WHERE kind = 'practice_open'"),
    ).rejects.toThrow(/mode of transfers .* is fixed/);
    await expect(
      t.db.query("UPDATE ledger_accounts SET kind = 'available' WHERE kind = 'house_practice'"),
    ).rejects.toThrow(/is fixed/);
    expect(await snapshot()).toBe(before);
  });

  it('keeps every entry on a transfer and an account that exist, for ever (migration 0024)', async () => {
    const real = await account(userId, 'available');
    const house = await account(null, 'house_trading');
    const before = await snapshot();
    const { rows } = await t.db.query<{ id: number }>(
      'SELECT id FROM transfers ORDER BY id LIMIT 1',
    );
    const transferId = rows[0]!.id;
    const entry = (transfer: number, acct: number) =>
      t.db.query(
        'INSERT INTO entries (transfer_id, account_id, amount, balance_after) VALUES ($1, $2, 1, 1)',
        [transfer, acct],
      );
    // Neither a transfer nor an account that does not exist, nor both.
    await expect(entry(transferId + 1_000_000, real)).rejects.toThrow(/no such transfer/);
    await expect(entry(transferId, house + 1_000_000)).rejects.toThrow(/no such account/);
    await expect(entry(transferId + 1_000_000, house + 1_000_000)).rejects.toThrow(/no such/);
    await expect(
      t.db.query(
        'UPDATE entries SET transfer_id = transfer_id + 1000000 WHERE id = (SELECT min(id) FROM entries)',
      ),
    ).rejects.toThrow(/no such transfer/);
    // What an entry refers to never goes away, nor changes its id.
    for (const table of ['transfers', 'ledger_accounts']) {
      await expect(t.db.query(`DELETE FROM ${table} WHERE id = $1`, [transferId])).rejects.toThrow(
        /append-only/,
      );
      await expect(t.db.query(`TRUNCATE ${table} CASCADE`)).rejects.toThrow(/append-only/);
      await expect(
        t.db.query(`UPDATE ${table} SET id = DEFAULT WHERE id = $1`, [transferId]),
      ).rejects.toThrow(/append-only/);
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses a mixed transfer in the service too, before the database sees it', async () => {
    const { transfer } = await import('./ledger');
    await expect(
      t.db.transaction((tx) =>
        transfer(tx, {
          kind: 'deposit',
          userId,
          legs: [
            { account: { user: userId, kind: 'practice_available' }, amount: -100 },
            { account: { user: userId, kind: 'available' }, amount: 100 },
          ],
        }),
      ),
    ).rejects.toThrow(/mixes practice and real money/);
  });
});
