import { generate, generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorRole } from '@server/platform/http/operator-gate';
import { hashPassword } from '@server/platform/passwords';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, newTestAddress, type TestApi } from '@tests/support/api';
import { opsAuth } from '@tests/support/wallet';

interface Created {
  operator: { id: string; name: string; role: OperatorRole; disabled: boolean };
  password: string;
  totpSecret: string;
}
interface AuditLine {
  operator: string;
  operatorId: string | null;
  role: string;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  address: string | null;
  status: number;
}
type Headers = Record<string, string>;

/**
 * Issue 33: an operator's lifecycle (disable, enable, another role, sessions ended) with the last
 * admin kept, names that cannot pass for another's, and failed sign-ins in the audit log.
 */
describe.each(dbDrivers())('operator lifecycle on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;

  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api?.close();
    await t?.drop();
  });

  let names = 0;
  const create = async (role: OperatorRole, name = `lc_${role}_${++names}`) =>
    (await api.http.post('/api/ops/operators').set(opsAuth).send({ name, role }).expect(201))
      .body as Created;
  const signIn = (c: Created, code: string | Promise<string>, from = newTestAddress()) =>
    Promise.resolve(code).then((code) =>
      api.http
        .post('/api/ops/session')
        .set('X-Forwarded-For', from)
        .send({ name: c.operator.name, password: c.password, code }),
    );
  /**
   * A session of `c`. Each 30 s step's code signs in once; the tests sign one operator in
   * several times within a step, so the step used last is forgotten first.
   */
  const session = async (
    c: Created,
    code: string | Promise<string> = generate({ secret: c.totpSecret }),
  ) => {
    await t.db.query('UPDATE operators SET totp_last_step = 0 WHERE lower(name) = lower($1)', [
      c.operator.name,
    ]);
    const res = await signIn(c, code);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { Authorization: `Bearer ${res.body.token as string}` };
  };
  const operator = async (role: OperatorRole) => {
    const created = await create(role);
    return { created, id: created.operator.id, auth: await session(created) };
  };
  const audit = async (query: Record<string, string>) =>
    (await api.http.get('/api/ops/audit').query(query).set(opsAuth).expect(200)).body
      .items as AuditLine[];
  const act = (auth: Headers, id: string, action: string, body: object = {}) =>
    action === 'sessions'
      ? api.http.delete(`/api/ops/operators/${id}/sessions`).set(auth)
      : api.http.post(`/api/ops/operators/${id}/${action}`).set(auth).send(body);
  /** Every active admin but `keep` disabled, so that the test knows who the admins are. */
  const onlyAdmins = async (...keep: string[]) => {
    const { rows } = await t.db.query<{ id: number }>(
      "SELECT id FROM operators WHERE role = 'admin' AND disabled_at IS NULL",
    );
    for (const { id } of rows)
      if (!keep.includes(String(id)))
        await act(opsAuth, String(id), 'disable', { reason: 'test setup' }).expect(200);
  };

  it('disables an operator: their next request is 401, they cannot sign in; enabling lets them sign in anew', async () => {
    const admin = await operator('admin');
    const reviewer = await operator('reviewer');
    const second = await session(reviewer.created);
    await api.http.get('/api/ops/me').set(reviewer.auth).expect(200);

    const noReason = await act(admin.auth, reviewer.id, 'disable', {});
    expect([noReason.status, noReason.body.error.field]).toEqual([400, 'reason']);
    const disabled = await act(admin.auth, reviewer.id, 'disable', { reason: 'left the team' });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: reviewer.id, disabled: true });
    // Both sessions end at once, on every route.
    await api.http.get('/api/ops/me').set(reviewer.auth).expect(401);
    await api.http.get('/api/ops/deposits').set(second).expect(401);
    const list = (await api.http.get('/api/ops/operators').set(admin.auth).expect(200)).body
      .items as { id: string; disabled: boolean; liveSessions: number }[];
    expect(list.find((o) => o.id === reviewer.id)).toMatchObject({
      disabled: true,
      liveSessions: 0,
    });
    // The right password and code of a disabled operator: refused like wrong ones.
    const refused = await signIn(
      reviewer.created,
      generate({ secret: reviewer.created.totpSecret }),
    );
    expect([refused.status, refused.body.error.code]).toEqual([401, 'BAD_CREDENTIALS']);

    const [line] = await audit({ target: `operator=${reviewer.id}`, action: 'disable' });
    expect(line).toMatchObject({
      operator: admin.created.operator.name,
      role: 'admin',
      action: 'POST /api/ops/operators/:id/disable',
      target: `operator=${reviewer.id}`,
      before: { disabled: false },
      after: { id: reviewer.id, disabled: true },
      reason: 'left the team',
      status: 200,
    });

    await act(admin.auth, reviewer.id, 'enable', { reason: 'back' }).expect(200);
    // Enabling brings no old session back; a new sign-in works.
    await api.http.get('/api/ops/me').set(reviewer.auth).expect(401);
    const again = await session(reviewer.created);
    await api.http.get('/api/ops/me').set(again).expect(200);
    const [enabled] = await audit({ target: `operator=${reviewer.id}`, action: 'enable' });
    expect(enabled).toMatchObject({ before: { disabled: true }, reason: 'back', status: 200 });

    // Unknown operators: 404, and nothing audited.
    await act(admin.auth, '99999999', 'disable', { reason: 'x' }).expect(404);
    await act(admin.auth, '99999999', 'sessions').expect(404);
    expect(await audit({ target: 'operator=99999999' })).toEqual([]);
  });

  it('gives an operator another role from their next request, and ends their sessions on demand', async () => {
    const admin = await operator('admin');
    const reviewer = await operator('reviewer');
    await api.http.get('/api/ops/deposits').set(reviewer.auth).expect(200);
    await api.http.get('/api/ops/users?q=1').set(reviewer.auth).expect(403);

    const changed = await act(admin.auth, reviewer.id, 'role', { role: 'support' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: reviewer.id, role: 'support' });
    await api.http.get('/api/ops/deposits').set(reviewer.auth).expect(403);
    await api.http.get('/api/ops/users?q=1').set(reviewer.auth).expect(200);
    expect((await api.http.get('/api/ops/me').set(reviewer.auth).expect(200)).body.role).toBe(
      'support',
    );
    const bad = await act(admin.auth, reviewer.id, 'role', { role: 'root' });
    expect([bad.status, bad.body.error.field]).toEqual([400, 'role']);
    const [line] = await audit({ target: `operator=${reviewer.id}`, action: 'role' });
    expect(line).toMatchObject({
      action: 'POST /api/ops/operators/:id/role',
      before: { role: 'reviewer' },
      after: { role: 'support' },
    });

    const ended = await act(admin.auth, reviewer.id, 'sessions');
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ revoked: 1 });
    await api.http.get('/api/ops/me').set(reviewer.auth).expect(401);
    const [endLine] = await audit({ target: `operator=${reviewer.id}`, action: 'sessions' });
    expect(endLine).toMatchObject({
      action: 'DELETE /api/ops/operators/:id/sessions',
      after: { revoked: 1 },
      status: 200,
    });
  });

  it('never leaves the console without an active admin', async () => {
    const first = await operator('admin');
    const second = await operator('admin');
    await onlyAdmins(first.id, second.id);

    // One admin disables the other; the last one can then neither go nor be demoted.
    await act(first.auth, second.id, 'disable', { reason: 'rotation' }).expect(200);
    for (const [action, body] of [
      ['disable', { reason: 'me' }],
      ['role', { role: 'support' }],
    ] as const) {
      for (const auth of [first.auth, opsAuth]) {
        const res = await act(auth, first.id, action, body);
        expect([res.status, res.body.error?.code], action).toEqual([409, 'LAST_ADMIN']);
      }
    }
    // Re-giving the admin role is no removal.
    await act(first.auth, first.id, 'role', { role: 'admin' }).expect(200);
    await api.http.get('/api/ops/me').set(first.auth).expect(200);
    expect(await audit({ target: `operator=${first.id}`, action: 'disable' })).toEqual([]);

    // Two admins disabling each other at once: one wins, the other is refused.
    await act(first.auth, second.id, 'enable', { reason: 'back' }).expect(200);
    const secondAgain = await session(second.created);
    const [a, b] = await Promise.all([
      act(first.auth, second.id, 'disable', { reason: 'race' }),
      act(secondAgain, first.id, 'disable', { reason: 'race' }),
    ]);
    const statuses = [a.status, b.status].sort();
    // The loser is either refused (LAST_ADMIN) or no longer signed in (its session ended).
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const { rows } = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM operators WHERE role = 'admin' AND disabled_at IS NULL",
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('takes names as lower-case ASCII slugs, refuses reserved ones and look-alikes of existing ones', async () => {
    const made = await create('support', 'Mallory_Ops');
    expect(made.operator.name).toBe('mallory_ops');
    for (const name of ['service', 'unknown', 'Admin', 'serv1ce', 'ѕervice', 't_аdmin', 'a.b.c']) {
      const res = await api.http
        .post('/api/ops/operators')
        .set(opsAuth)
        .send({ name, role: 'admin' });
      expect([res.status, res.body.error.field], name).toEqual([400, 'name']);
    }
    for (const name of ['mallory-ops', 'rnallory_ops', 'ma1lory_ops', 'MALLORY_0PS']) {
      const res = await api.http
        .post('/api/ops/operators')
        .set(opsAuth)
        .send({ name, role: 'reviewer' });
      expect([res.status, res.body.error.code, res.body.error.field], name).toEqual([
        409,
        'ACCOUNT_TAKEN',
        'name',
      ]);
    }
    // Look-alikes sent at once: one is made.
    const racing = await Promise.all(
      ['racer_o', 'racer_0', 'racer-o'].map((name) =>
        api.http.post('/api/ops/operators').set(opsAuth).send({ name, role: 'reviewer' }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);

    // A name from before the rule keeps working, and a new name that looks like it is refused.
    const password = 'legacy password 1';
    const secret = generateSecret();
    await t.db.query(
      `INSERT INTO operators (name, role, password_hash, totp_secret) VALUES ($1, 'reviewer', $2, $3)`,
      ['Old.Timer', await hashPassword(password), secret],
    );
    const legacy = {
      operator: { id: '', name: 'Old.Timer', role: 'reviewer' as const, disabled: false },
      password,
      totpSecret: secret,
    };
    const auth = await session(legacy);
    await api.http.get('/api/ops/deposits').set(auth).expect(200);
    expect((await api.http.get('/api/ops/me').set(auth).expect(200)).body.name).toBe('Old.Timer');
    const alike = await api.http
      .post('/api/ops/operators')
      .set(opsAuth)
      .send({ name: 'old_timer', role: 'reviewer' });
    expect([alike.status, alike.body.error.code]).toEqual([409, 'ACCOUNT_TAKEN']);
  });

  it('audits failed sign-ins with the name tried and the address, never the password or code', async () => {
    const c = await create('reviewer');
    const from = newTestAddress();
    const code = await generate({ secret: c.totpSecret });
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const attempts: [Record<string, string>, string][] = [
      [{ name: c.operator.name, password: 'not-the-password', code }, 'password'],
      [{ name: c.operator.name, password: c.password, code: wrongCode }, 'code'],
      [{ name: `NoSuch_${c.operator.name}`, password: 'whatever-it-is', code }, 'unknown_name'],
    ];
    for (const [body] of attempts)
      await api.http.post('/api/ops/session').set('X-Forwarded-For', from).send(body).expect(401);
    await session(c, code);
    // The same code again: used.
    const replay = await signIn(c, code, from);
    expect(replay.status).toBe(401);

    const lines = (await audit({ action: 'session', target: c.operator.name })).filter(
      (l) => l.address === from,
    );
    expect(lines.map((l) => [l.status, (l.after as { failure?: string }).failure])).toEqual([
      [401, 'code_used'],
      [401, 'unknown_name'],
      [401, 'code'],
      [401, 'password'],
    ]);
    expect(lines[3]).toMatchObject({
      operator: c.operator.name,
      operatorId: c.operator.id,
      role: 'reviewer',
      action: 'POST /api/ops/session',
      target: `operator=${c.operator.id} name=${c.operator.name}`,
      after: { signedIn: false, failure: 'password' },
    });
    expect(lines[1]).toMatchObject({
      operator: 'unknown',
      operatorId: null,
      role: 'none',
      target: `name=NoSuch_${c.operator.name}`,
    });
    const text = JSON.stringify(lines);
    for (const secret of ['not-the-password', 'whatever-it-is', c.password, code, wrongCode])
      expect(text).not.toContain(secret);

    // A disabled operator with the right password and code.
    await act(opsAuth, c.operator.id, 'disable', { reason: 'test' }).expect(200);
    const refused = await signIn(c, generate({ secret: c.totpSecret }), from);
    expect(refused.status).toBe(401);
    const [disabledLine] = await audit({ action: 'session', target: `operator=${c.operator.id}` });
    expect(disabledLine).toMatchObject({
      status: 401,
      after: { signedIn: false, failure: 'disabled' },
      address: from,
    });
  });

  it("audits the lock-out of a name at its tenth wrong sign-in, and the address's at its first refusal", async () => {
    const c = await create('support');
    for (let i = 0; i < 10; i++)
      await api.http
        .post('/api/ops/session')
        .set('X-Forwarded-For', newTestAddress())
        .send({ name: c.operator.name, password: `wrong-${i}`, code: '000000' })
        .expect(401);
    const locked = await signIn(c, generate({ secret: c.totpSecret }));
    expect([locked.status, locked.body.error.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
    const lines = await audit({ action: 'session', target: `operator=${c.operator.id}` });
    expect(lines.slice(0, 3).map((l) => [l.status, l.after])).toEqual([
      [429, { signedIn: false, failure: 'locked' }],
      [429, { signedIn: false, lockedOut: 'name' }],
      [401, { signedIn: false, failure: 'password' }],
    ]);
    expect(lines.filter((l) => l.status === 401)).toHaveLength(10);

    // One address: 50 attempts in the window, then refused; the first refusal is written once.
    const from = newTestAddress();
    for (let i = 0; i < 50; i++)
      expect(
        (
          await api.http
            .post('/api/ops/session')
            .set('X-Forwarded-For', from)
            .send({ name: c.operator.name, password: 'x', code: '000000' })
        ).status,
      ).toBe(429);
    for (let i = 0; i < 3; i++)
      await api.http
        .post('/api/ops/session')
        .set('X-Forwarded-For', from)
        .send({ name: 'anybody_else', password: 'x', code: '000000' })
        .expect(429);
    const fromThere = (await audit({ action: 'session', limit: '100' })).filter(
      (l) => l.address === from,
    );
    expect(fromThere.filter((l) => (l.after as { lockedOut?: string }).lockedOut)).toEqual([
      expect.objectContaining({
        operator: 'unknown',
        status: 429,
        target: 'name=anybody_else',
        after: { signedIn: false, lockedOut: 'address' },
      }),
    ]);
    expect(fromThere).toHaveLength(51);
  });
});
