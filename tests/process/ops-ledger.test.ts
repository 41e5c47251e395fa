import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transfer } from '@server/modules/wallet/ledger';
import { buildTestApi, OPERATOR_TOKEN, type TestApi } from '../support/api';
import { dbDrivers, openTestDb, type TestDb } from '../support/db';
import { repoRoot } from '../support/processes';

/** `npm run ops -- ledger check` as a scheduled job runs it: its own process, its exit code. */
function ledgerCheck(url: string): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      path.join(repoRoot, 'node_modules/.bin/tsx'),
      ['scripts/ops.ts', 'ledger', 'check', '--url', url, '--token', OPERATOR_TOKEN],
      { cwd: repoRoot, encoding: 'utf8' },
      (err, stdout, stderr) => resolve({ status: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe.each(dbDrivers())('ops ledger check exit code (%s)', (driver) => {
  let tdb: TestDb;
  let api: TestApi;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    tdb = await openTestDb(driver);
    api = await buildTestApi(tdb.db);
    server = api.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await api.close();
    await tdb.drop();
  });

  it('exits 0 on a ledger that balances, and 1 naming the problem once an entry unbalances it', async () => {
    // Real money movements first: a clean ledger with transfers in it.
    await tdb.db.transaction((tx) =>
      transfer(tx, {
        kind: 'deposit',
        userId: null,
        ref: 'test:clean',
        legs: [
          { account: { house: 'world' }, amount: -5000 },
          { account: { house: 'house_trading' }, amount: 5000 },
        ],
      }),
    );
    const clean = await ledgerCheck(url);
    expect(clean.stderr).toBe('');
    expect(JSON.parse(clean.stdout)).toEqual({ ok: true, problems: [] });
    expect(clean.status).toBe(0);

    // Corrupt it behind the ledger's back: a transfer with one entry that nothing balances.
    const corrupt = await tdb.db.query<{ id: number }>(
      `WITH t AS (INSERT INTO transfers (kind, ref) VALUES ('deposit', 'test:corrupt') RETURNING id)
       INSERT INTO entries (transfer_id, account_id, amount, balance_after)
       SELECT t.id, a.id, 700, 700 FROM t, ledger_accounts a WHERE a.kind = 'house_interest'
       RETURNING transfer_id AS id`,
    );
    const transferId = corrupt.rows[0]!.id;

    const broken = await ledgerCheck(url);
    expect(broken.status).toBe(1);
    const answer = JSON.parse(broken.stdout) as { ok: boolean; problems: string[] };
    expect(answer.ok).toBe(false);
    expect(answer.problems).toContain(`transfer ${transferId} sums to 700`);
    expect(broken.stderr).toContain('ledger check failed');
    expect(broken.stderr).toContain(`problem: transfer ${transferId} sums to 700`);
  });

  it('exits 1 when the server refuses the call (a wrong token)', async () => {
    const res = await new Promise<number>((resolve) =>
      execFile(
        path.join(repoRoot, 'node_modules/.bin/tsx'),
        ['scripts/ops.ts', 'ledger', 'check', '--url', url, '--token', 'not-the-token-0000'],
        { cwd: repoRoot, encoding: 'utf8' },
        (err) => resolve(err ? Number(err.code ?? 1) : 0),
      ),
    );
    expect(res).toBe(1);
  });
});
