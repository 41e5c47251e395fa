import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, newTestAddress, registerUser, type TestApi } from '@tests/support/api';

/** Signing in, sessions and password changes (auth.test.ts has registration). */
describe.each(dbDrivers())('sign-in and passwords on %s', (kind) => {
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
      // The refusal says how long the lock lasts: the rest of the pair's 15-minute window, in the
      // body (ms) and in Retry-After (whole seconds, rounded up), so the page can count it down.
      const waitMs = (res.body as { error: { retryAfterMs: number } }).error.retryAfterMs;
      expect(waitMs).toBeGreaterThan(14 * 60_000);
      expect(waitMs).toBeLessThanOrEqual(15 * 60_000);
      expect(Number(res.headers['retry-after'])).toBe(Math.ceil(waitMs / 1000));
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
      // The account's own gate refused: its wait is the rest of its day, not of a 15-minute pair.
      expect(late.body.error.retryAfterMs).toBeGreaterThan(23 * 3600_000);
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
});
