import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import {
  OPERATOR_TOKEN,
  buildTestApi,
  newTestAddress,
  registerUser,
  type TestApi,
} from '@tests/support/api';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts';

const pw = 'correct horse 1';
const reg = (account: string, over: Record<string, unknown> = {}) => ({
  account,
  phone: '+8613800138000',
  inviteCode: 'WELCOME',
  password: pw,
  passwordConfirm: pw,
  tradePassword: '123456',
  tradePasswordConfirm: '123456',
  acceptTerms: DEFAULT_TERMS_VERSION,
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
    it('checks the invitation code before the account: no valid code, no word on the account', async () => {
      await api.http.post('/api/auth/register').send(reg('KnownOne')).expect(201);
      for (const account of ['knownone', 'unknown_9'])
        expect(
          (
            await api.http
              .post('/api/auth/register/check')
              .send({ account, phone: '13800138000', inviteCode: 'NOPE123' })
              .expect(400)
          ).body,
        ).toMatchObject({ error: { code: 'INVITE_INVALID', field: 'inviteCode' } });
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

  describe('throttles per client address', () => {
    const check = (from: string, account: string) =>
      api.http
        .post('/api/auth/register/check')
        .set('X-Forwarded-For', from)
        .send({ account, phone: '13800138000', inviteCode: 'WELCOME' });

    it('answers 30 step-1 checks per address in 15 minutes, then 429 RATE_LIMITED', async () => {
      const from = newTestAddress();
      for (let i = 0; i < 30; i++) await check(from, `probe_${i}`).expect(200);
      const res = await check(from, 'probe_x').expect(429);
      expect(res.body).toMatchObject({ error: { code: 'RATE_LIMITED' } });
      // Checks sent at once from a fresh address cannot pass the limit together either.
      const burst = newTestAddress();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => check(burst, `burst_${i}`)),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([
        ...Array<number>(30).fill(200),
        ...Array<number>(10).fill(429),
      ]);
      await check(newTestAddress(), 'probe_x').expect(200);
    });

    it('opens 10 accounts per address an hour, then 429 RATE_LIMITED writing nothing', async () => {
      const from = newTestAddress();
      const register = (account: string) =>
        api.http.post('/api/auth/register').set('X-Forwarded-For', from).send(reg(account));
      for (let i = 0; i < 10; i++) await register(`many_${i}`).expect(201);
      const res = await register('many_x').expect(429);
      expect(res.body).toMatchObject({ error: { code: 'RATE_LIMITED' } });
      // Nothing was written: the account is still free, and another address opens it.
      await check(newTestAddress(), 'many_x').expect(200);
      await api.http
        .post('/api/auth/register')
        .set('X-Forwarded-For', newTestAddress())
        .send(reg('many_x'))
        .expect(201);
    });

    it('counts an IPv6 address by its /64, the block one host can pick addresses from', async () => {
      const answers = [];
      for (let i = 0; i < 31; i++)
        answers.push((await check(`2001:db8:aa:bb::${(i + 1).toString(16)}`, `v6_${i}`)).status);
      expect(answers.slice(0, 30)).toEqual(Array<number>(30).fill(200));
      expect(answers[30]).toBe(429);
      await check('2001:db8:aa:bc::1', 'v6_x').expect(200);
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
      // The same answer but for the request id, which is each request's own.
      const { requestId: _a, ...wrongError } = wrong.body.error as Record<string, unknown>;
      const { requestId: _b, ...unknownError } = unknown.body.error as Record<string, unknown>;
      expect(wrongError).toEqual(unknownError);
      expect(wrong.body).toMatchObject({ error: { code: 'BAD_CREDENTIALS' } });
    });
    it('answers 429 TOO_MANY_ATTEMPTS after 10 wrong passwords from one address, even to the right one', async () => {
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
    it('does not let a stranger lock the owner out: ten guesses from one address leave the owner elsewhere alone', async () => {
      const u = await registerUser(api, 'victim');
      const login = (from: string, password: string) =>
        api.http
          .post('/api/auth/login')
          .set('X-Forwarded-For', from)
          .send({ account: u.account.toUpperCase(), password });
      const stranger = newTestAddress();
      for (let i = 0; i < 10; i++) await login(stranger, `guess ${i}`).expect(401);
      await login(stranger, u.password).expect(429);
      await login(newTestAddress(), u.password).expect(200);
      // The owner's success does not reopen the stranger's pair.
      await login(stranger, u.password).expect(429);
    });
    it('stops guessing spread over many addresses: 100 wrong per account a day, then 429 for everyone', async () => {
      const u = await registerUser(api, 'spread');
      const login = (from: string, password: string) =>
        api.http
          .post('/api/auth/login')
          .set('X-Forwarded-For', from)
          .send({ account: u.account, password });
      // Ten addresses, ten guesses each, all at once: each pair stays within its limit.
      const guesses = await Promise.all(
        Array.from({ length: 10 }, () => newTestAddress()).flatMap((from) =>
          Array.from({ length: 10 }, (_, i) => login(from, `guess ${i}`)),
        ),
      );
      expect(guesses.map((g) => g.status)).toEqual(Array<number>(100).fill(401));
      const late = await login(newTestAddress(), 'one more guess').expect(429);
      expect(late.body).toMatchObject({ error: { code: 'TOO_MANY_ATTEMPTS' } });
      await login(newTestAddress(), u.password).expect(429);
      // Other accounts are not affected.
      const other = await registerUser(api, 'spared');
      await api.http
        .post('/api/auth/login')
        .set('X-Forwarded-For', newTestAddress())
        .send({ account: other.account, password: other.password })
        .expect(200);
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
    it('keeps one patient address from filling the account’s count on its own', async () => {
      // Small figures and a 1-second short window, so that the test sees windows pass.
      const api2 = await buildTestApi(t.db, {
        limits: {
          loginPair: { points: 3, durationSec: 1 },
          loginPairDaily: { points: 6, durationSec: 86_400 },
          loginAccount: { points: 8, durationSec: 86_400 },
        },
      });
      try {
        const u = await registerUser(api2, 'patient');
        const login = (from: string, password: string) =>
          api2.http
            .post('/api/auth/login')
            .set('X-Forwarded-For', from)
            .send({ account: u.account, password });
        const stranger = newTestAddress();
        // Guess on until refused for 2.5 s on end, longer than two short windows: then it is
        // the pair's daily limit that refuses. Without one, the short windows would let the
        // stranger go on to fill the account's 8.
        let checked = 0;
        let refusedSince: number | null = null;
        const giveUpAt = Date.now() + 30_000;
        while (refusedSince === null || Date.now() - refusedSince < 2_500) {
          expect(Date.now()).toBeLessThan(giveUpAt);
          const status = (await login(stranger, `guess ${checked}`)).status;
          if (status === 401) [checked, refusedSince] = [checked + 1, null];
          else refusedSince ??= Date.now();
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(checked).toBe(6);
        await login(newTestAddress(), u.password).expect(200);
      } finally {
        await api2.close();
      }
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
        .expect(401); // not a credential at all (a role without the right is 403: roles.test.ts)
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
