import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApi, OPERATOR_TOKEN } from '@tests/support/api';
import { openTestDb, urlWithSchema } from '@tests/support/db';
import { repoRoot, startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';
import { readyUser, summaryOf, TRADE_PASSWORD } from '@tests/support/wallet';

const run = promisify(execFile);

/**
 * The restore drill of docs/OPERATIONS.md ("Backups and a restore drill"): dump a populated
 * database with pg_dump, restore it into a fresh database with pg_restore, copy the uploads
 * after it, start an api process on the copy, and the ledger check passes, balances and uploads
 * included.
 */
describe('restore drill (pg_dump → pg_restore → api → ledger check)', { timeout: 120_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-restore-'));
  const restoredDb = `restore_${randomBytes(4).toString('hex')}`;
  const cleanups: (() => Promise<unknown>)[] = [];

  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('restores a populated database and its uploads, and the api finds it whole', async () => {
    // A populated database: users with identity checks, deposits (with their screenshots),
    // a pending withdrawal holding money, and savings.
    const t = await openTestDb('postgres');
    cleanups.push(() => t.drop());
    const api = await buildTestApi(t.db);
    cleanups.push(() => api.close());
    const alice = await readyUser(api, 150_000, 'alice');
    const bob = await readyUser(api, 80_000, 'bob');
    await api.http
      .post('/api/withdrawals')
      .set(alice.auth)
      .send({ accountId: alice.accountId, amount: 20_000, tradePassword: TRADE_PASSWORD })
      .expect(201);
    await api.http.post('/api/savings/in').set(bob.auth).send({ amount: 30_000 }).expect(201);
    const before = { alice: await summaryOf(api, alice), bob: await summaryOf(api, bob) };
    const deposits = (await api.http.get('/api/deposits').set(alice.auth).expect(200)).body as {
      items: { screenshotId: string }[];
    };
    const screenshotId = deposits.items[0]!.screenshotId;

    // The backup, in the documented order: the dump first, then the uploads.
    const dump = path.join(dir, 'trade.dump');
    await run('pg_dump', ['-Fc', '-n', t.schema!, '-f', dump, '-d', t.url!]);
    fs.cpSync(api.uploadsDir, path.join(dir, 'backup-uploads'), { recursive: true });

    // The restore: a fresh database, the dump, the uploads.
    const admin = new pg.Client({ connectionString: t.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${restoredDb}`);
    await admin.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: t.url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${restoredDb} WITH (FORCE)`);
      await c.end();
    });
    const restoredUrl = new URL(t.url!);
    restoredUrl.pathname = `/${restoredDb}`;
    await run('pg_restore', ['--no-owner', '-d', restoredUrl.toString(), dump]);
    const dataDir = path.join(dir, 'restored-data');
    fs.cpSync(path.join(dir, 'backup-uploads'), path.join(dataDir, 'uploads'), {
      recursive: true,
    });

    // An api process on the copy, as the drill starts it.
    const port = await freePort();
    const restored: RunningProcess = startEntry('server/src/main/api.ts', {
      DATABASE_URL: urlWithSchema(restoredUrl.toString(), t.schema!),
      DATA_DIR: dataDir,
      OPERATOR_TOKEN,
      PORT: String(port),
      LOG_LEVEL: 'warn',
    });
    cleanups.push(() => restored.stop('SIGTERM'));
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/readyz`, 200, 60_000);

    const ops = (args: string[]) =>
      run(path.join(repoRoot, 'node_modules/.bin/tsx'), ['scripts/ops.ts', ...args], {
        cwd: repoRoot,
        env: { ...process.env, OPS_URL: base, OPERATOR_TOKEN },
      });
    // The ledger check passes (a failing check would exit 1 and reject).
    const check = await ops(['ledger', 'check']);
    expect(JSON.parse(check.stdout)).toEqual({ ok: true, problems: [] });

    // The users' figures are those of before, their sessions still live.
    for (const [name, user] of [
      ['alice', alice],
      ['bob', bob],
    ] as const) {
      const res = await fetch(`${base}/api/account/summary`, { headers: user.auth });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(before[name]);
    }
    expect(before.alice.withdrawHold).toBe(20_000);

    // The uploads match the rows: a deposit's screenshot comes back.
    const out = path.join(dir, 'screenshot');
    await ops(['uploads', 'get', screenshotId, '--out', out]);
    expect(fs.readFileSync(out).length).toBeGreaterThan(0);
    const original = await api.http
      .get(`/api/uploads/${screenshotId}`)
      .set({ Authorization: `Bearer ${OPERATOR_TOKEN}` })
      .buffer(true)
      .expect(200);
    expect(fs.readFileSync(out).equals(original.body as Buffer)).toBe(true);
  });
});
