import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@shared/content/model';
import type { OpsUserProfile } from '@shared/accounts/ops.routes';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, newTestAddress, registerUser, type TestApi } from '@tests/support/api';
import { itemsOf, opsAuth, TRADE_PASSWORD, type TestUser } from '@tests/support/wallet';
import { operatorSession } from '@tests/support/operators';
import { codeAt, enrolTwoFactor } from '@tests/support/two-factor';

const HOUR = 3_600_000;
type Headers = Record<string, string>;

/**
 * Issue 39: the console shows a user's two-factor state and sessions (never a secret or a code),
 * ends one session, and resets two-factor for a user who lost it only by the recovery procedure
 * (docs/OPERATIONS.md): support asks, another operator (an admin) approves, it takes effect
 * TWO_FACTOR_RESET_DELAY_HOURS later on the platform clock, and the user, told at once, can
 * call it off.
 */
describe.each(dbDrivers())('support and two-factor on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  let support: Awaited<ReturnType<typeof operatorSession>>;
  let admin: Awaited<ReturnType<typeof operatorSession>>;

  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
    support = await operatorSession(api, 'support');
    admin = await operatorSession(api, 'admin');
  });
  afterAll(async () => {
    await api?.close();
    await t?.drop();
  });

  const profile = async (u: TestUser) =>
    (await api.http.get(`/api/ops/users/${u.user.id}`).set(opsAuth).expect(200))
      .body as OpsUserProfile;
  const resetPath = (u: TestUser) => `/api/ops/users/${u.user.id}/two-factor-reset`;
  const request = (u: TestUser, auth: Headers = support.auth, body?: object) =>
    api.http
      .post(resetPath(u))
      .set(auth)
      .send(body ?? { reason: 'lost phone; ID and selfie match the KYC record', ticket: 'T-1042' });
  const approve = (u: TestUser, auth: Headers = admin.auth) =>
    api.http
      .post(`${resetPath(u)}/approve`)
      .set(auth)
      .send({});
  const login = (u: TestUser, extra: object = {}) =>
    api.http
      .post('/api/auth/login')
      .set('X-Forwarded-For', newTestAddress())
      .send({ account: u.account, password: u.password, ...extra });
  const messagesOf = async (u: TestUser) =>
    itemsOf<Message>(await api.http.get('/api/messages').set(u.auth).expect(200));
  const auditOf = async (target: string) =>
    (await api.http.get('/api/ops/audit').query({ target }).set(opsAuth).expect(200)).body
      .items as { operator: string; action: string; reason: string | null; target: string }[];
  const codeOf = (res: { body: { error?: { code?: string } } }) => res.body.error?.code;
  const userReset = async (u: TestUser) =>
    (await api.http.get('/api/security/two-factor/reset').set(u.auth).expect(200)).body as {
      reset: { requestedAt: number; effectiveAt: number | null } | null;
    };

  async function enrolled(prefix: string) {
    const u = await registerUser(api, prefix);
    return { u, ...(await enrolTwoFactor(api, u)) };
  }

  it("shows the two-factor state and the sessions' devices and addresses, never a secret or a code", async () => {
    const plain = await registerUser(api, 'tfplain');
    expect((await profile(plain)).twoFactor).toEqual({
      enabled: false,
      since: null,
      recoveryCodesLeft: 0,
      trustedDevices: 1,
      reset: null,
    });
    const { u, secret, codes } = await enrolled('tfshow');
    await login(u, { code: codes[0] }).expect(200);
    const res = await api.http.get(`/api/ops/users/${u.user.id}`).set(opsAuth).expect(200);
    const body = res.body as OpsUserProfile;
    expect(body.twoFactor).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 9,
      trustedDevices: 2,
      reset: null,
    });
    expect(body.twoFactor.since).toBeGreaterThan(Date.now() - 60_000);
    expect(body.sessions).toHaveLength(2);
    for (const s of body.sessions) {
      expect(s.device).toEqual(expect.any(String));
      expect(s.address).toMatch(/^10\./);
    }
    const json = res.text;
    expect(json).not.toContain(secret);
    for (const c of codes) {
      expect(json).not.toContain(c);
      expect(json).not.toContain(c.replace('-', ''));
    }
    expect(json).not.toMatch(/"(secret|codes?|code_?[hH]ash|token_?[hH]ash)"/);
    const { rows } = await t.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM user_recovery_codes WHERE user_id = $1',
      [u.user.id],
    );
    for (const r of rows) expect(json).not.toContain(r.code_hash);
  });

  it('ends one session at once, its sockets told, the others signed in; audited', async () => {
    const u = await registerUser(api, 'tfone');
    const other = await login(u).expect(200);
    const otherAuth = { Authorization: `Bearer ${other.body.token as string}` };
    const sessions = (await profile(u)).sessions;
    expect(sessions).toHaveLength(2);
    const listed = (await api.http.get('/api/security/sessions').set(otherAuth).expect(200)).body
      .items as { id: string; current: boolean }[];
    const mine = listed.find((s) => s.current)!.id;
    await api.http
      .delete(`/api/ops/users/${u.user.id}/sessions/${mine}`)
      .set(support.auth)
      .expect(204);
    await api.http.get('/api/account/summary').set(otherAuth).expect(401);
    await api.http.get('/api/account/summary').set(u.auth).expect(200);
    expect(api.userEvents.ended.at(-1)).toMatchObject({ reason: 'revoked' });
    expect(api.userEvents.ended.at(-1)!.tokenHashes[0]!.startsWith(mine)).toBe(true);
    expect((await profile(u)).sessions.map((s) => s.id)).not.toContain(mine);
    const lines = await auditOf(`user=${u.user.id} session=${mine}`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ operator: support.name });
    // Ended already, someone else's or not a session id at all.
    const again = await api.http
      .delete(`/api/ops/users/${u.user.id}/sessions/${mine}`)
      .set(support.auth);
    expect([again.status, codeOf(again)]).toEqual([404, 'NOT_FOUND']);
    const bad = await api.http.delete(`/api/ops/users/${u.user.id}/sessions/xyz`).set(support.auth);
    expect([bad.status, bad.body.error.field]).toEqual([400, 'session']);
  });

  it('resets two-factor by four eyes and a delay: told with the phrase, off only once it is due', async () => {
    const { u, codes } = await enrolled('tfreset');
    await api.http
      .put('/api/security/anti-phishing')
      .set(u.auth)
      .send({ phrase: 'quiet lake', tradePassword: TRADE_PASSWORD })
      .expect(200);
    const asked = await request(u).expect(200);
    expect(asked.body.reset).toMatchObject({
      reason: 'lost phone; ID and selfie match the KYC record',
      ticket: 'T-1042',
      requestedBy: support.name,
      approvedBy: null,
      effectiveAt: null,
    });
    const [told] = await messagesOf(u);
    expect(told).toMatchObject({
      kind: 'security_two_factor_reset',
      params: { phrase: 'quiet lake' },
    });
    // When it could take effect at the earliest: the delay from now (an approval comes later).
    expect(Math.abs(told!.params.at! - (api.clock.now() + 72 * HOUR))).toBeLessThan(5_000);
    expect(told!.body).toContain('quiet lake');
    expect((await userReset(u)).reset).toEqual({
      requestedAt: asked.body.reset.requestedAt,
      effectiveAt: null,
    });
    expect(codeOf(await request(u).expect(409))).toBe('TWO_FACTOR_RESET_PENDING');
    // Four eyes: not who asked, not the nameless service token, not support.
    const bySupport = await approve(u, support.auth);
    expect([bySupport.status, codeOf(bySupport)]).toEqual([403, 'FORBIDDEN']);
    const adminAsker = await enrolled('tfself');
    await request(adminAsker.u, admin.auth).expect(200);
    const same = await approve(adminAsker.u, admin.auth);
    expect([same.status, codeOf(same)]).toEqual([403, 'TWO_FACTOR_RESET_SAME_OPERATOR']);
    const service = await approve(u, opsAuth);
    expect([service.status, codeOf(service)]).toEqual([403, 'TWO_FACTOR_RESET_NAMED_OPERATOR']);

    const approved = await approve(u).expect(200);
    const effectiveAt = api.clock.now() + 72 * HOUR;
    expect(approved.body.reset).toMatchObject({ approvedBy: admin.name });
    expect(Math.abs(approved.body.reset.effectiveAt - effectiveAt)).toBeLessThan(5_000);
    expect((await messagesOf(u))[0]).toMatchObject({
      kind: 'security_two_factor_reset',
      params: { at: approved.body.reset.effectiveAt },
    });
    expect(codeOf(await approve(u).expect(409))).toBe('TWO_FACTOR_RESET_NONE');

    // An hour before it is due: still on, for sign-in as for everything else.
    api.clock.advance(71 * HOUR);
    expect(await api.twoFactorResets.job.runOnce()).toBe(0);
    expect(codeOf(await login(u).expect(401))).toBe('TWO_FACTOR_REQUIRED');
    expect((await profile(u)).twoFactor.enabled).toBe(true);

    api.clock.advance(2 * HOUR);
    expect(await api.twoFactorResets.job.runOnce()).toBeGreaterThanOrEqual(1);
    expect((await profile(u)).twoFactor).toEqual({
      enabled: false,
      since: null,
      recoveryCodesLeft: 0,
      trustedDevices: 0,
      reset: null,
    });
    const left = await t.db.query('SELECT 1 FROM user_recovery_codes WHERE user_id = $1', [
      u.user.id,
    ]);
    expect(left.rows).toEqual([]);
    expect((await messagesOf(u))[0]).toMatchObject({
      kind: 'security_two_factor_off',
      params: { phrase: 'quiet lake' },
    });
    // A new device signs in with the password alone; a password change asks no code either.
    await login(u).expect(200);
    expect(codes).toHaveLength(10);
    const lines = await auditOf(`user=${u.user.id}`);
    expect(lines.map((l) => [l.operator, l.action])).toEqual([
      ['system', 'SYSTEM two-factor reset took effect'],
      [admin.name, `POST /api/ops/users/:id/two-factor-reset/approve`],
      [support.name, `POST /api/ops/users/:id/two-factor-reset`],
    ]);
    expect(lines[2]!.reason).toBe('lost phone; ID and selfie match the KYC record');
    const password = 'another horse 2';
    await api.http
      .post('/api/me/password')
      .set(u.auth)
      .send({ oldPassword: u.password, newPassword: password, confirmPassword: password })
      .expect(204);
  });

  it('is called off by the user on the security page, by a sign-in with a code, or by an operator', async () => {
    const a = await enrolled('tfcancel');
    await request(a.u).expect(200);
    await api.http.delete('/api/security/two-factor/reset').set(a.u.auth).expect(204);
    expect(await userReset(a.u)).toEqual({ reset: null });
    const none = await api.http.delete('/api/security/two-factor/reset').set(a.u.auth);
    expect([none.status, codeOf(none)]).toEqual([409, 'TWO_FACTOR_RESET_NONE']);
    expect(codeOf(await approve(a.u).expect(409))).toBe('TWO_FACTOR_RESET_NONE');

    // Approved, then the owner signs in with a code: the reset is off, two-factor stays on.
    const b = await enrolled('tfsignin');
    await request(b.u).expect(200);
    await approve(b.u).expect(200);
    await login(b.u, { code: await codeAt(b.secret, 1) }).expect(200);
    expect((await profile(b.u)).twoFactor).toMatchObject({ enabled: true, reset: null });
    api.clock.advance(100 * HOUR);
    await api.twoFactorResets.job.runOnce();
    expect((await profile(b.u)).twoFactor.enabled).toBe(true);
    // A recovery code does as much, and so does a forgotten password's reset with a code.
    await request(b.u).expect(200);
    await login(b.u, { code: b.codes[3] }).expect(200);
    expect(await userReset(b.u)).toEqual({ reset: null });
    await request(b.u).expect(200);
    const password = 'new horse 3';
    await api.http
      .post('/api/auth/reset')
      .set('X-Forwarded-For', newTestAddress())
      .send({
        account: b.u.account,
        tradePassword: TRADE_PASSWORD,
        code: b.codes[4],
        newPassword: password,
        confirmPassword: password,
      })
      .expect(204);
    expect((await profile(b.u)).twoFactor).toMatchObject({ enabled: true, reset: null });

    const c = await enrolled('tfopcancel');
    await request(c.u).expect(200);
    const off = await api.http.delete(resetPath(c.u)).set(support.auth).expect(200);
    expect(off.body).toMatchObject({ enabled: true, reset: null });
    expect((await auditOf(`user=${c.u.user.id}`))[0]).toMatchObject({
      operator: support.name,
      action: 'DELETE /api/ops/users/:id/two-factor-reset',
    });
    expect(codeOf(await api.http.delete(resetPath(c.u)).set(support.auth).expect(409))).toBe(
      'TWO_FACTOR_RESET_NONE',
    );
  });

  it('refuses bad requests with stable codes: reason and ticket, unknown users, two-factor off, roles', async () => {
    const { u } = await enrolled('tfbad');
    for (const [body, field] of [
      [{ reason: '', ticket: 'T-1' }, 'reason'],
      [{ reason: '   ', ticket: 'T-1' }, 'reason'],
      [{ reason: 'x'.repeat(501), ticket: 'T-1' }, 'reason'],
      [{ reason: 'lost phone' }, 'ticket'],
      [{ reason: 'lost phone', ticket: 'T'.repeat(65) }, 'ticket'],
    ] as const) {
      const res = await request(u, support.auth, body).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
    }
    const unknown = await api.http
      .post('/api/ops/users/99999999/two-factor-reset')
      .set(support.auth)
      .send({ reason: 'lost phone', ticket: 'T-1' });
    expect([unknown.status, codeOf(unknown)]).toEqual([404, 'NOT_FOUND']);
    const plain = await registerUser(api, 'tfoff');
    expect(codeOf(await request(plain).expect(409))).toBe('TWO_FACTOR_OFF');
    const reviewer = await operatorSession(api, 'reviewer');
    expect(codeOf(await request(u, reviewer.auth).expect(403))).toBe('FORBIDDEN');
    expect(codeOf(await request(u, opsAuth).expect(403))).toBe('TWO_FACTOR_RESET_NAMED_OPERATOR');
    // Nothing was written by any of them.
    expect((await profile(u)).twoFactor.reset).toBeNull();
  });
});
