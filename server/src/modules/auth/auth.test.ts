import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import {
  OPERATOR_TOKEN,
  buildTestApi,
  newTestAddress,
  registerUser,
  type TestApi,
} from '@tests/support/api';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';

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
