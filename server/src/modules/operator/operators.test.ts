import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes } from '@server/platform/http/route';
import {
  operatorRoles,
  roleAreas,
  type OperatorArea,
  type OperatorRole,
} from '@server/platform/http/operator-gate';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { TRADE_PASSWORD, deposit, opsAuth, readyUser } from '@tests/support/wallet';

interface Created {
  operator: { id: string; name: string; role: OperatorRole };
  password: string;
  totpSecret: string;
  otpauthUri: string;
}

/**
 * Issue 20: named operators (password and TOTP), roles checked on every /api/ops route, frozen
 * users, and the append-only audit log.
 */
describe.each(dbDrivers())('named operators on %s', (kind) => {
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
  const createOperator = async (role: OperatorRole, auth = opsAuth) =>
    (
      await api.http
        .post('/api/ops/operators')
        .set(auth)
        .send({ name: `${role}_${kind}_${++names}`, role })
        .expect(201)
    ).body as Created;
  /** Signs in with the code of the current 30 s step (each step's code works once). */
  const signIn = async (c: Created, code?: string) =>
    api.http.post('/api/ops/session').send({
      name: c.operator.name,
      password: c.password,
      code: code ?? (await generate({ secret: c.totpSecret })),
    });
  const operatorAuth = async (role: OperatorRole) => {
    const created = await createOperator(role);
    const res = await signIn(created);
    expect(res.status).toBe(200);
    return { created, auth: { Authorization: `Bearer ${res.body.token as string}` } };
  };

  it('creates an operator whose password and code sign in once per code, never twice', async () => {
    const c = await createOperator('reviewer');
    expect(c.otpauthUri).toContain(`secret=${c.totpSecret}`);
    // Neither the password nor the secret is kept in clear.
    const { rows } = await t.db.query<{ password_hash: string; totp_secret: string }>(
      'SELECT password_hash, totp_secret FROM operators WHERE id = $1',
      [c.operator.id],
    );
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);

    const wrongCode = String((Number(await generate({ secret: c.totpSecret })) + 1) % 1_000_000);
    const refused = await signIn(c, wrongCode.padStart(6, '0'));
    expect([refused.status, refused.body.error.code]).toEqual([401, 'BAD_CREDENTIALS']);
    const wrongPassword = await api.http.post('/api/ops/session').send({
      name: c.operator.name,
      password: 'nope',
      code: await generate({ secret: c.totpSecret }),
    });
    expect([wrongPassword.status, wrongPassword.body.error.code]).toEqual([401, 'BAD_CREDENTIALS']);

    const code = await generate({ secret: c.totpSecret });
    const ok = await signIn(c, code);
    expect(ok.status).toBe(200);
    expect(ok.body.operator).toMatchObject({ name: c.operator.name, role: 'reviewer' });
    const me = await api.http
      .get('/api/ops/me')
      .set({ Authorization: `Bearer ${ok.body.token as string}` })
      .expect(200);
    expect(me.body).toEqual({ id: c.operator.id, name: c.operator.name, role: 'reviewer' });
    // The same code again (seen over a shoulder, replayed): refused like a wrong one.
    const replay = await signIn(c, code);
    expect([replay.status, replay.body.error.code]).toEqual([401, 'BAD_CREDENTIALS']);

    // Signing out ends the session: the token is no credential any more.
    const auth = { Authorization: `Bearer ${ok.body.token as string}` };
    await api.http.delete('/api/ops/session').set(auth).expect(204);
    await api.http.get('/api/ops/me').set(auth).expect(401);
  });

  it('refuses a second operator of the same name, and roles it does not know', async () => {
    const c = await createOperator('support');
    const again = await api.http
      .post('/api/ops/operators')
      .set(opsAuth)
      .send({ name: c.operator.name.toUpperCase(), role: 'admin' });
    expect([again.status, again.body.error.code]).toEqual([409, 'ACCOUNT_TAKEN']);
    const badRole = await api.http
      .post('/api/ops/operators')
      .set(opsAuth)
      .send({ name: 'someone', role: 'root' });
    expect([badRole.status, badRole.body.error.field]).toEqual([400, 'role']);
  });

  it('stops guessing: ten wrong sign-ins of one name, then 429 even with the right code', async () => {
    const c = await createOperator('reviewer');
    for (let i = 0; i < 10; i++)
      expect(
        (
          await api.http
            .post('/api/ops/session')
            .send({ name: c.operator.name, password: `wrong-${i}`, code: '000000' })
        ).status,
      ).toBe(401);
    const right = await signIn(c);
    expect([right.status, right.body.error.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
  });

  /**
   * The role matrix, generated from the route registry: every role against every operator route.
   * A role outside the route's areas gets 403 and the route's handler never runs; a role inside
   * it gets past the gate (whatever the handler then says of the placeholder ids and bodies).
   */
  it('lets each role reach exactly its areas, on every /api/ops route', async () => {
    const sessions = Object.fromEntries(
      await Promise.all(
        operatorRoles.map(async (role) => [role, (await operatorAuth(role)).auth] as const),
      ),
    ) as unknown as Record<OperatorRole, Record<string, string>>;
    // Signing out would end the sessions mid-matrix: it is checked last, for every role.
    const routes = declaredRoutes().filter(
      (r) =>
        r.auth?.who === 'operator' &&
        r.documentPath.startsWith('/api/ops/') &&
        r.operationId !== 'operatorLogout',
    );
    expect(routes.length).toBeGreaterThan(20);
    const placeholder = (path: string) =>
      path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        name === 'lang' ? 'en' : name === 'slug' ? 'about' : '999999',
      );
    const matrix: string[] = [];
    for (const route of routes) {
      const areas = (route.auth as unknown as { areas: OperatorArea[] }).areas;
      expect(areas, route.operationId).toBeDefined();
      for (const role of [...operatorRoles, 'service'] as const) {
        const auth = role === 'service' ? opsAuth : sessions[role];
        // A GET cannot change anything; a change is sent an empty body, which every such route
        // refuses (400) or, if it passed, names the placeholder id that does not exist (404).
        const path = placeholder(route.documentPath);
        const req =
          route.method === 'get'
            ? api.http.get(path)
            : route.method === 'delete'
              ? api.http.delete(path)
              : api.http[route.method](path).send({});
        const res = await req.set(auth);
        const allowed = role === 'service' || areas.some((a) => roleAreas[role].includes(a));
        matrix.push(`${role} ${route.method.toUpperCase()} ${route.documentPath} ${res.status}`);
        if (allowed) expect([401, 403], `${role} → ${route.operationId}`).not.toContain(res.status);
        else expect(res.status, `${role} → ${route.operationId}`).toBe(403);
      }
    }
    // The matrix covers every route for all four callers.
    expect(matrix.length).toBe(routes.length * 4);
    // Whoever signs out is signed out, whatever the role (self).
    for (const role of operatorRoles)
      await api.http.delete('/api/ops/session').set(sessions[role]).expect(204);
  });

  it('freezes a user: no order, withdrawal or login, reading allowed; the audit names who, why and when', async () => {
    const support = await operatorAuth('support');
    const u = await readyUser(api, 100_000);
    const before = Date.now();
    const frozen = await api.http
      .post(`/api/ops/users/${u.user.id}/freeze`)
      .set(support.auth)
      .send({ reason: 'chargeback under review' })
      .expect(200);
    expect(frozen.body).toEqual({ id: u.user.id, frozen: true });

    const order = await api.http
      .post('/api/orders')
      .set(u.auth)
      .send({ productId: 'BTCUSDT', direction: 'up', amount: 1000, duration: 30 });
    expect([order.status, order.body.error.code]).toEqual([403, 'ACCOUNT_FROZEN']);
    const withdrawal = await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .send({ accountId: u.accountId, amount: 10_000, tradePassword: TRADE_PASSWORD });
    expect([withdrawal.status, withdrawal.body.error.code]).toEqual([403, 'ACCOUNT_FROZEN']);
    const login = await api.http
      .post('/api/auth/login')
      .send({ account: u.account, password: u.password });
    expect([login.status, login.body.error.code]).toEqual([403, 'ACCOUNT_FROZEN']);
    // A wrong password says only that: a guesser learns nothing of the freeze.
    const guess = await api.http
      .post('/api/auth/login')
      .send({ account: u.account, password: 'wrong password 1' });
    expect([guess.status, guess.body.error.code]).toEqual([401, 'BAD_CREDENTIALS']);
    // The account can still be read, and signed out of.
    expect((await api.http.get('/api/account/summary').set(u.auth)).status).toBe(200);
    expect((await api.http.get('/api/orders').set(u.auth)).status).toBe(200);

    const audit = await api.http
      .get('/api/ops/audit')
      .query({ target: `user=${u.user.id}` })
      .set(opsAuth)
      .expect(200);
    const line = (audit.body.items as Record<string, unknown>[])[0]!;
    expect(line).toMatchObject({
      operator: support.created.operator.name,
      operatorId: support.created.operator.id,
      role: 'support',
      action: 'POST /api/ops/users/:id/freeze',
      target: `user=${u.user.id}`,
      before: { frozen: false },
      after: { id: u.user.id, frozen: true },
      reason: 'chargeback under review',
      status: 200,
    });
    expect(line.at as number).toBeGreaterThanOrEqual(before - 1000);
    expect(line.at as number).toBeLessThanOrEqual(Date.now() + 1000);

    // Unfreezing needs a reason too; then the user logs in again.
    const noReason = await api.http
      .post(`/api/ops/users/${u.user.id}/unfreeze`)
      .set(support.auth)
      .send({});
    expect([noReason.status, noReason.body.error.field]).toEqual([400, 'reason']);
    await api.http
      .post(`/api/ops/users/${u.user.id}/unfreeze`)
      .set(support.auth)
      .send({ reason: 'resolved' })
      .expect(200);
    await api.http
      .post('/api/auth/login')
      .send({ account: u.account, password: u.password })
      .expect(200);
    // Unknown users: 404, and nothing audited for them.
    const unknown = await api.http
      .post('/api/ops/users/99999999/freeze')
      .set(support.auth)
      .send({ reason: 'x' });
    expect(unknown.status).toBe(404);
  });

  it('audits a review with its operator, and never the secrets of an answer', async () => {
    const reviewer = await operatorAuth('reviewer');
    const u = await registerUser(api, 'audited');
    const depositId = await deposit(api, u, 50_000);
    await api.http
      .post(`/api/ops/deposits/${depositId}/approve`)
      .set(reviewer.auth)
      .send({})
      .expect(200);
    const lines = (
      await api.http
        .get('/api/ops/audit')
        .query({ operator: reviewer.created.operator.name })
        .set(opsAuth)
        .expect(200)
    ).body.items as Record<string, unknown>[];
    expect(lines.map((l) => l.action)).toEqual([
      'POST /api/ops/deposits/:id/approve',
      'POST /api/ops/session',
    ]);
    expect(lines[0]).toMatchObject({ target: `id=${depositId}`, after: { status: 'approved' } });

    // Creating an operator is audited without the password or the TOTP secret.
    const made = await createOperator('support');
    const createdLine = (
      await api.http
        .get('/api/ops/audit')
        .query({ target: `operator=${made.operator.id}` })
        .set(opsAuth)
        .expect(200)
    ).body.items[0] as Record<string, unknown>;
    expect(createdLine.operator).toBe('service');
    expect(JSON.stringify(createdLine)).not.toContain(made.password);
    expect(JSON.stringify(createdLine)).not.toContain(made.totpSecret);
  });

  it('keeps the audit log append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ops_audit');
    expect(rows[0]!.n).toBeGreaterThan(0);
    await expect(t.db.query("UPDATE ops_audit SET reason = 'rewritten'")).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db.query('DELETE FROM ops_audit')).rejects.toThrow(/append-only/);
    await expect(t.db.query('TRUNCATE ops_audit')).rejects.toThrow(/append-only/);
    const after = await t.db.query<{ n: number; rewritten: number }>(
      "SELECT count(*)::int AS n, count(*) FILTER (WHERE reason = 'rewritten')::int AS rewritten FROM ops_audit",
    );
    expect(after.rows[0]).toEqual({ n: rows[0]!.n, rewritten: 0 });
  });
});
