import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { OPERATOR_TOKEN, buildTestApi, registerUser, type TestApi } from '@tests/support/api';

const pw = 'correct horse 1';
const reg = (account: string, over: Record<string, unknown> = {}) => ({
  account,
  phone: '+8613800138000',
  inviteCode: 'WELCOME',
  password: pw,
  passwordConfirm: pw,
  tradePassword: '123456',
  tradePasswordConfirm: '123456',
  ...over,
});

describe.each(dbDrivers())('accounts API on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  describe('register/check', () => {
    it('accepts a free account with a valid code', async () => {
      await api.http
        .post('/api/auth/register/check')
        .send({ account: 'fresh_1', phone: '13800138000', inviteCode: 'welcome' })
        .expect(200, { ok: true });
    });
    it('answers 409 ACCOUNT_TAKEN for a taken account, whatever its case', async () => {
      await api.http.post('/api/auth/register').send(reg('TakenOne')).expect(201);
      const res = await api.http
        .post('/api/auth/register/check')
        .send({ account: 'takenone', phone: '13800138000', inviteCode: 'WELCOME' })
        .expect(409);
      expect(res.body).toMatchObject({ error: { code: 'ACCOUNT_TAKEN', field: 'account' } });
    });
    it('answers 400 INVITE_INVALID for an unknown code', async () => {
      const res = await api.http
        .post('/api/auth/register/check')
        .send({ account: 'fresh_2', phone: '13800138000', inviteCode: 'NOPE123' })
        .expect(400);
      expect(res.body).toMatchObject({ error: { code: 'INVITE_INVALID', field: 'inviteCode' } });
    });
    it.each([
      [{ account: '', phone: '13800138000', inviteCode: 'WELCOME' }, 'account'],
      [{ account: 'abc', phone: '13800138000', inviteCode: 'WELCOME' }, 'account'],
      [{ account: 'a'.repeat(21), phone: '13800138000', inviteCode: 'WELCOME' }, 'account'],
      [{ account: 'bad name!', phone: '13800138000', inviteCode: 'WELCOME' }, 'account'],
      [{ account: 12345, phone: '13800138000', inviteCode: 'WELCOME' }, 'account'],
      [{ account: 'okname', inviteCode: 'WELCOME' }, 'phone'],
      [{ account: 'okname', phone: '12-34', inviteCode: 'WELCOME' }, 'phone'],
      [{ account: 'okname', phone: '1'.repeat(16), inviteCode: 'WELCOME' }, 'phone'],
      [{ account: 'okname', phone: '13800138000', inviteCode: '' }, 'inviteCode'],
      [{ account: 'okname', phone: '13800138000' }, 'inviteCode'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const res = await api.http.post('/api/auth/register/check').send(body).expect(400);
      expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', field } });
    });
  });

  describe('register', () => {
    it('creates the user with an invitation code of its own', async () => {
      const res = await api.http.post('/api/auth/register').send(reg('newbie_1')).expect(201);
      expect(res.body.user).toMatchObject({
        account: 'newbie_1',
        nickname: 'newbie_1',
        creditScore: 100,
        kyc: { status: 'none' },
      });
      expect(res.body.user.inviteCode).toMatch(/^[A-Z2-9]{8}$/);
      expect(res.body.user).not.toHaveProperty('password_hash');
      // Another person can open an account with that code.
      await api.http
        .post('/api/auth/register')
        .send(reg('newbie_2', { inviteCode: res.body.user.inviteCode }))
        .expect(201);
    });
    it('refuses mismatched passwords with the spec codes and writes nothing', async () => {
      const a = await api.http
        .post('/api/auth/register')
        .send(reg('mismatch1', { passwordConfirm: 'other password' }))
        .expect(400);
      expect(a.body).toMatchObject({ error: { code: 'PASSWORD_MISMATCH' } });
      const b = await api.http
        .post('/api/auth/register')
        .send(reg('mismatch1', { tradePasswordConfirm: '654321' }))
        .expect(400);
      expect(b.body).toMatchObject({ error: { code: 'TRADE_PASSWORD_MISMATCH' } });
      await api.http
        .post('/api/auth/register/check')
        .send({ account: 'mismatch1', phone: '13800138000', inviteCode: 'WELCOME' })
        .expect(200);
    });
    it.each([
      [{ password: 'short' }, 'password'],
      [{ password: 'x'.repeat(65), passwordConfirm: 'x'.repeat(65) }, 'password'],
      [{ tradePassword: '12345', tradePasswordConfirm: '12345' }, 'tradePassword'],
      [{ tradePassword: 'abcdef', tradePasswordConfirm: 'abcdef' }, 'tradePassword'],
      [{ tradePassword: 123456 }, 'tradePassword'],
    ])('refuses bad passwords %j with 400 naming %s', async (over, field) => {
      const res = await api.http.post('/api/auth/register').send(reg('badpass1', over)).expect(400);
      expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', field } });
    });
    it('lets exactly one of two concurrent registrations of one account through', async () => {
      const answers = await Promise.all(
        [1, 2, 3].map(() => api.http.post('/api/auth/register').send(reg('racer_1'))),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      for (const r of answers.filter((x) => x.status === 409))
        expect(r.body).toMatchObject({ error: { code: 'ACCOUNT_TAKEN' } });
      const { rows } = await t.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM users WHERE lower(account) = 'racer_1'",
      );
      expect(rows[0]!.n).toBe(1);
    });
    it('answers 400 for a body that is not JSON, and 413 for a huge one', async () => {
      await api.http
        .post('/api/auth/register')
        .set('content-type', 'application/json')
        .send('{"account":')
        .expect(400);
      await api.http
        .post('/api/auth/register')
        .send({ account: 'x'.repeat(100_000) })
        .expect(413);
    });
  });

  describe('login, sessions, logout', () => {
    it('logs in and reads the profile with the token', async () => {
      const u = await registerUser(api, 'login');
      const me = await api.http.get('/api/me').set(u.auth).expect(200);
      expect(me.body).toMatchObject({
        id: u.user.id,
        account: u.account,
        phone: '+8613800138000',
        inviteCode: u.user.inviteCode,
        creditScore: 100,
        kyc: { status: 'none' },
      });
      expect(typeof me.body.createdAt).toBe('number');
    });
    it('gives the same answer for an unknown account and a wrong password', async () => {
      const u = await registerUser(api, 'same');
      const wrong = await api.http
        .post('/api/auth/login')
        .send({ account: u.account, password: 'wrong password' })
        .expect(401);
      const unknown = await api.http
        .post('/api/auth/login')
        .send({ account: 'nobody_here', password: 'wrong password' })
        .expect(401);
      expect(wrong.body).toEqual(unknown.body);
      expect(wrong.body).toMatchObject({ error: { code: 'BAD_CREDENTIALS' } });
    });
    it('answers 429 TOO_MANY_ATTEMPTS after 10 wrong passwords, even to the right one', async () => {
      const u = await registerUser(api, 'brute');
      for (let i = 0; i < 10; i++)
        await api.http
          .post('/api/auth/login')
          .send({ account: u.account, password: `wrong ${i}` })
          .expect(401);
      const res = await api.http
        .post('/api/auth/login')
        .send({ account: u.account, password: u.password })
        .expect(429);
      expect(res.body).toMatchObject({ error: { code: 'TOO_MANY_ATTEMPTS' } });
    });
    it('holds the limit for wrong passwords sent at once: exactly 10 are checked', async () => {
      const u = await registerUser(api, 'burst');
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          api.http.post('/api/auth/login').send({ account: u.account, password: `guess ${i}` }),
        ),
      );
      expect(answers.map((a) => `${a.status} ${a.body.error.code}`).sort()).toEqual([
        ...Array<string>(10).fill('401 BAD_CREDENTIALS'),
        ...Array<string>(6).fill('429 TOO_MANY_ATTEMPTS'),
      ]);
    });
    it('lets a right password clear the count: 9 wrong, right, 9 wrong, right', async () => {
      const u = await registerUser(api, 'clears');
      const login = (password: string) =>
        api.http.post('/api/auth/login').send({ account: u.account, password });
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 9; i++) expect((await login(`wrong ${i}`)).status).toBe(401);
        expect((await login(u.password)).status).toBe(200);
      }
    });
    it('refuses missing, malformed, unknown and revoked tokens with 401', async () => {
      await api.http.get('/api/me').expect(401);
      await api.http.get('/api/me').set('Authorization', 'Bearer').expect(401);
      await api.http.get('/api/me').set('Authorization', 'Bearer not a token').expect(401);
      await api.http
        .get('/api/me')
        .set('Authorization', `Bearer ${'A'.repeat(43)}`)
        .expect(401);
      const u = await registerUser(api, 'logout');
      await api.http.post('/api/auth/logout').set(u.auth).expect(204);
      const res = await api.http.get('/api/me').set(u.auth).expect(401);
      expect(res.body).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    });
  });

  describe('password changes', () => {
    it('needs the old password, ends the other sessions and keeps this one', async () => {
      const u = await registerUser(api, 'chpw');
      const other = (
        await api.http
          .post('/api/auth/login')
          .send({ account: u.account, password: u.password })
          .expect(200)
      ).body as { token: string };
      const wrong = await api.http
        .post('/api/me/password')
        .set(u.auth)
        .send({
          oldPassword: 'nope nope',
          newPassword: 'brand new pw',
          confirmPassword: 'brand new pw',
        })
        .expect(403);
      expect(wrong.body).toMatchObject({ error: { code: 'WRONG_PASSWORD', field: 'oldPassword' } });
      const mismatch = await api.http
        .post('/api/me/password')
        .set(u.auth)
        .send({
          oldPassword: u.password,
          newPassword: 'brand new pw',
          confirmPassword: 'brand new px',
        })
        .expect(400);
      expect(mismatch.body).toMatchObject({ error: { code: 'PASSWORD_MISMATCH' } });
      await api.http
        .post('/api/me/password')
        .set(u.auth)
        .send({
          oldPassword: u.password,
          newPassword: 'brand new pw',
          confirmPassword: 'brand new pw',
        })
        .expect(204);
      await api.http.get('/api/me').set('Authorization', `Bearer ${other.token}`).expect(401);
      await api.http.get('/api/me').set(u.auth).expect(200);
      await api.http
        .post('/api/auth/login')
        .send({ account: u.account, password: u.password })
        .expect(401);
      await api.http
        .post('/api/auth/login')
        .send({ account: u.account, password: 'brand new pw' })
        .expect(200);
    });
    it('changes the transaction password with the old one', async () => {
      const u = await registerUser(api, 'chtp');
      const wrong = await api.http
        .post('/api/me/trade-password')
        .set(u.auth)
        .send({ oldPassword: '000000', newPassword: '654321', confirmPassword: '654321' })
        .expect(403);
      expect(wrong.body).toMatchObject({ error: { code: 'WRONG_TRADE_PASSWORD' } });
      const mismatch = await api.http
        .post('/api/me/trade-password')
        .set(u.auth)
        .send({ oldPassword: '123456', newPassword: '654321', confirmPassword: '654320' })
        .expect(400);
      expect(mismatch.body).toMatchObject({ error: { code: 'TRADE_PASSWORD_MISMATCH' } });
      await api.http
        .post('/api/me/trade-password')
        .set(u.auth)
        .send({ oldPassword: '123456', newPassword: '65432', confirmPassword: '65432' })
        .expect(400);
      await api.http
        .post('/api/me/trade-password')
        .set(u.auth)
        .send({ oldPassword: '123456', newPassword: '654321', confirmPassword: '654321' })
        .expect(204);
      expect(await api.auth.verifyTradePassword(Number(u.user.id), '654321')).toBe(true);
      expect(await api.auth.verifyTradePassword(Number(u.user.id), '123456')).toBe(false);
    });
    it('needs a login for password changes', async () => {
      await api.http
        .post('/api/me/password')
        .send({ oldPassword: 'a', newPassword: 'brand new pw', confirmPassword: 'brand new pw' })
        .expect(401);
    });
  });

  describe('operators and app info', () => {
    it('issues invitation codes only with the operator token', async () => {
      await api.http.post('/api/ops/invites').send({}).expect(401);
      await api.http
        .post('/api/ops/invites')
        .set('Authorization', 'Bearer wrong-token')
        .send({})
        .expect(403);
      const ops = { Authorization: `Bearer ${OPERATOR_TOKEN}` };
      const made = await api.http.post('/api/ops/invites').set(ops).send({}).expect(201);
      expect(made.body.code).toMatch(/^[A-Z2-9]{8}$/);
      await api.http
        .post('/api/ops/invites')
        .set(ops)
        .send({ code: 'spring2026' })
        .expect(201, { code: 'SPRING2026' });
      const dup = await api.http
        .post('/api/ops/invites')
        .set(ops)
        .send({ code: 'SPRING2026' })
        .expect(409);
      expect(dup.body).toMatchObject({ error: { code: 'INVALID_STATE' } });
      await api.http.post('/api/ops/invites').set(ops).send({ code: 'a b' }).expect(400);
      await api.http
        .post('/api/auth/register')
        .send(reg('invited_1', { inviteCode: 'spring2026' }))
        .expect(201);
    });
    it('lets operators set a credit score', async () => {
      const u = await registerUser(api, 'credit');
      const ops = { Authorization: `Bearer ${OPERATOR_TOKEN}` };
      await api.http
        .post(`/api/ops/users/${u.user.id}/credit-score`)
        .set(ops)
        .send({ score: 88 })
        .expect(204);
      expect((await api.http.get('/api/me').set(u.auth)).body.creditScore).toBe(88);
      await api.http
        .post('/api/ops/users/999999/credit-score')
        .set(ops)
        .send({ score: 88 })
        .expect(404);
      await api.http
        .post(`/api/ops/users/${u.user.id}/credit-score`)
        .set(ops)
        .send({ score: -1 })
        .expect(400);
      await api.http
        .post(`/api/ops/users/${u.user.id}/credit-score`)
        .set(ops)
        .send({ score: 1.5 })
        .expect(400);
    });
    it('describes the app', async () => {
      const res = await api.http.get('/api/app-info').expect(200);
      expect(res.body).toMatchObject({
        currency: 'USDT',
        depositChannels: ['bank', 'usdt-trc20', 'usdt-erc20'],
      });
      expect(res.body.languages).toHaveLength(10);
    });
  });
});
