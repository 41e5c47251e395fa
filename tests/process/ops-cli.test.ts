import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transfer } from '@server/modules/ledger/ledger';
import { buildTestApi, OPERATOR_TOKEN, registerUser, type TestApi } from '../support/api';
import { bankDepositFields, images, postDeposit } from '../support/wallet';
import { dbDrivers, openTestDb, type TestDb } from '../support/db';
import { repoRoot } from '../support/processes';

/** `npm run ops -- …` as an operator or a scheduled job runs it: its own process, its exit code. */
function ops(
  url: string,
  args: string[],
  token = OPERATOR_TOKEN,
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      path.join(repoRoot, 'node_modules/.bin/tsx'),
      ['scripts/ops.ts', ...args, '--url', url, '--token', token],
      { cwd: repoRoot, encoding: 'utf8' },
      (err, stdout, stderr) => resolve({ status: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe.each(dbDrivers())('the ops CLI (%s)', (driver) => {
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
    const clean = await ops(url, ['ledger', 'check']);
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

    const broken = await ops(url, ['ledger', 'check']);
    expect(broken.status).toBe(1);
    const answer = JSON.parse(broken.stdout) as { ok: boolean; problems: string[] };
    expect(answer.ok).toBe(false);
    expect(answer.problems).toContain(`transfer ${transferId} sums to 700`);
    expect(broken.stderr).toContain('ledger check failed');
    expect(broken.stderr).toContain(`problem: transfer ${transferId} sums to 700`);
  });

  it('exits 1 when the server refuses the call (a wrong token)', async () => {
    const res = await ops(url, ['ledger', 'check'], 'not-the-token-0000');
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('UNAUTHENTICATED');
  });

  it('creates the first admin with operators create; the admin signs in with the password and a TOTP code', async () => {
    const name = `admin_${driver}`;
    const made = await ops(url, ['operators', 'create', '--name', name, '--role', 'admin']);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stderr).toContain('not shown again');
    const answer = JSON.parse(made.stdout) as { password: string; totpSecret: string };
    const session = await fetch(`${url}/api/ops/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name,
        password: answer.password,
        code: await generate({ secret: answer.totpSecret }),
      }),
    });
    expect(session.status).toBe(200);
    const { token } = (await session.json()) as { token: string };
    // The admin's own session works the CLI too, and is named in the audit log it reads.
    const listed = await ops(url, ['operators', 'list'], token);
    expect(listed.status, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).items).toEqual([
      expect.objectContaining({ name, role: 'admin' }),
    ]);
    const frozen = await ops(url, ['users', 'freeze', '99999999', '--reason', 'test'], token);
    expect(frozen.status).toBe(1);
    const audit = await ops(url, ['audit', 'list', '--target', `operator=`]);
    expect(audit.status, audit.stderr).toBe(0);
    expect(JSON.parse(audit.stdout).items[0]).toMatchObject({
      operator: name,
      action: 'POST /api/ops/session',
    });
  });

  it('seeds the default content once with content seed: Home gets its banners and highlights', async () => {
    const empty = await api.http.get('/api/content/home?lang=en').expect(200);
    expect(empty.body.banners).toEqual([]);
    const first = await ops(url, ['content', 'seed']);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ seeded: true });
    const home = await api.http.get('/api/content/home?lang=en').expect(200);
    expect(home.body.banners).toHaveLength(3);
    expect(home.body.highlights).toHaveLength(4);
    expect(home.body.news.length).toBeGreaterThanOrEqual(3);
    await api.http.get('/api/pages/rules?lang=de').expect(200);

    // Once per database: a second run writes nothing and says so.
    const again = await ops(url, ['content', 'seed']);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ seeded: false });
    const after = await api.http.get('/api/content/home?lang=en').expect(200);
    expect(after.body.banners).toHaveLength(3);

    // Operators only.
    await api.http.post('/api/ops/content/seed').expect(401);

    // A language's banners replaced from a JSON file, in order.
    const file = path.join(os.tmpdir(), `banners-${process.pid}-${Date.now()}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify({ banners: [{ title: 'Try practice', link: '/pages/order/order' }] }),
    );
    try {
      const set = await ops(url, ['banners', 'set', 'en', '--file', file]);
      expect(set.status).toBe(0);
      const now = await api.http.get('/api/content/home?lang=en').expect(200);
      expect(now.body.banners).toMatchObject([
        { title: 'Try practice', link: '/pages/order/order' },
      ]);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('saves an uploaded screenshot to a file with uploads get, byte for byte', async () => {
    const user = await registerUser(api, 'cli');
    const deposit = await postDeposit(api, user.auth, bankDepositFields(10_000), {
      bytes: images.png,
    }).expect(201);
    const uploadId = deposit.body.screenshotId as string;
    // The image as stored: the server encodes every upload again without its metadata.
    const stored = fs.readFileSync(path.join(api.uploadsDir, uploadId));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-cli-'));
    try {
      const out = path.join(dir, 'screenshot.png');
      const saved = await ops(url, ['uploads', 'get', uploadId, '--out', out]);
      expect(saved.stderr).toBe('');
      expect(saved.status).toBe(0);
      expect(fs.readFileSync(out).equals(stored)).toBe(true);
      expect(JSON.parse(saved.stdout)).toEqual({
        out,
        bytes: stored.length,
        contentType: 'image/png',
      });

      // An existing file is never overwritten.
      const again = await ops(url, ['uploads', 'get', uploadId, '--out', out]);
      expect(again.status).not.toBe(0);
      expect(again.stderr).toContain('EEXIST');
      expect(fs.readFileSync(out).equals(stored)).toBe(true);

      // An unknown upload: 404, exit 1, no file.
      const missing = path.join(dir, 'missing.png');
      const unknown = await ops(url, ['uploads', 'get', 'no-such-upload', '--out', missing]);
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toContain('NOT_FOUND');
      expect(fs.existsSync(missing)).toBe(false);

      // No --out: refused before anything is fetched.
      const noOut = await ops(url, ['uploads', 'get', uploadId]);
      expect(noOut.status).toBe(2);
      expect(noOut.stderr).toContain('missing --out');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // The service token's read of the image is in the access log, which the CLI reads.
    const access = await ops(url, ['access', 'list', '--user', user.user.id]);
    expect(access.status, access.stderr).toBe(0);
    expect(JSON.parse(access.stdout).items[0]).toMatchObject({
      operator: 'service',
      kind: 'upload',
      uploadId,
      userId: user.user.id,
    });
  });

  it('disables, enables, re-roles an operator and ends their sessions; the last admin stays', async () => {
    const made = await ops(url, [
      'operators',
      'create',
      '--name',
      `cli_rev_${driver}`,
      '--role',
      'reviewer',
    ]);
    expect(made.status, made.stderr).toBe(0);
    const created = JSON.parse(made.stdout) as {
      operator: { id: string; name: string };
      password: string;
      totpSecret: string;
    };
    const id = created.operator.id;
    const signIn = async () => {
      await tdb.db.query('UPDATE operators SET totp_last_step = 0 WHERE id = $1', [id]);
      const res = await fetch(`${url}/api/ops/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: created.operator.name,
          password: created.password,
          code: await generate({ secret: created.totpSecret }),
        }),
      });
      return res.status === 200 ? ((await res.json()) as { token: string }).token : null;
    };
    const me = async (token: string) =>
      (await fetch(`${url}/api/ops/me`, { headers: { authorization: `Bearer ${token}` } })).status;
    const token = (await signIn())!;

    const disabled = await ops(url, ['operators', 'disable', id, '--reason', 'left']);
    expect(disabled.status, disabled.stderr).toBe(0);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ id, disabled: true });
    expect(await me(token)).toBe(401);
    expect(await signIn()).toBeNull();
    expect((await ops(url, ['operators', 'disable', id])).status).toBe(2);

    expect((await ops(url, ['operators', 'enable', id, '--reason', 'back'])).status).toBe(0);
    const again = (await signIn())!;
    const role = await ops(url, ['operators', 'role', id, 'support', '--reason', 'moved']);
    expect(role.status, role.stderr).toBe(0);
    expect(JSON.parse(role.stdout)).toMatchObject({ id, role: 'support' });
    const ended = await ops(url, ['operators', 'end-sessions', id]);
    expect(JSON.parse(ended.stdout)).toEqual({ revoked: 1 });
    expect(await me(again)).toBe(401);
    const listed = JSON.parse((await ops(url, ['operators', 'list'])).stdout) as {
      items: { id: string; role: string; disabled: boolean; liveSessions: number }[];
    };
    expect(listed.items.find((o) => o.id === id)).toMatchObject({
      role: 'support',
      disabled: false,
      liveSessions: 0,
    });
    const audit = await ops(url, ['audit', 'list', '--target', `operator=${id}`]);
    expect(
      (JSON.parse(audit.stdout) as { items: { action: string }[] }).items.map((l) => l.action),
    ).toEqual([
      'DELETE /api/ops/operators/:id/sessions',
      'POST /api/ops/operators/:id/role',
      'POST /api/ops/session',
      'POST /api/ops/operators/:id/enable',
      'POST /api/ops/session',
      'POST /api/ops/operators/:id/disable',
      'POST /api/ops/session',
      'POST /api/ops/operators',
    ]);

    // Every admin but one disabled: that one cannot be (409 LAST_ADMIN, exit 1).
    const admins = listed.items.filter((o) => o.role === 'admin' && !o.disabled);
    expect(admins.length).toBeGreaterThan(0);
    for (const admin of admins.slice(1))
      expect((await ops(url, ['operators', 'disable', admin.id, '--reason', 'x'])).status).toBe(0);
    const last = await ops(url, ['operators', 'disable', admins[0]!.id, '--reason', 'x']);
    expect(last.status).toBe(1);
    expect(last.stderr).toContain('LAST_ADMIN');
  });
});
