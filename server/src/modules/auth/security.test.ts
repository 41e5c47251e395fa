import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { movableClock } from '@server/platform/clock';
import type { Message } from '@shared/content/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, newTestAddress, registerUser, type TestApi } from '@tests/support/api';
import {
  bankAccountBody,
  fund,
  itemsOf,
  TRADE_PASSWORD,
  verifyKyc,
  type TestUser,
} from '@tests/support/wallet';
import { deviceName } from './device-name';
import { TRUSTED_DEVICES_MAX } from './two-factor.repo';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe('a device named from its user agent', () => {
  it('says browser and system, and "Unknown device" for nothing useful', () => {
    expect(deviceName(ANDROID_CHROME)).toBe('Chrome · Android');
    expect(deviceName(IPHONE_SAFARI)).toBe('Safari · iOS');
    expect(deviceName('')).toBe('Unknown device');
    expect(deviceName(null)).toBe('Unknown device');
    expect(deviceName('x'.repeat(10_000))).toBe('Unknown device');
  });
});

describe.each(dbDrivers())('account security on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  const clock = movableClock();
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { clock, env: { WITHDRAWAL_ACCOUNT_HOLD_HOURS: '24' } });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const login = (u: TestUser & { password: string }, extra: object = {}, agent = ANDROID_CHROME) =>
    api.http
      .post('/api/auth/login')
      .set('X-Forwarded-For', newTestAddress())
      .set('User-Agent', agent)
      .send({ account: u.account, password: u.password, ...extra });
  const messagesOf = async (u: TestUser) =>
    itemsOf<Message>(await api.http.get('/api/messages').set(u.auth).expect(200));
  const kinds = async (u: TestUser) => (await messagesOf(u)).map((m) => m.kind);
  const codeOf = (res: { body: { error?: { code?: string } } }) => res.body.error?.code;

  it('lists the sessions with their devices, this one marked, and signs one or all others out', async () => {
    const u = await registerUser(api, 'sess');
    const phone = await login(u, {}, IPHONE_SAFARI).expect(200);
    const other = { Authorization: `Bearer ${phone.body.token as string}` };
    const third = await login(u, { device: phone.body.device }).expect(200);
    const list = await api.http.get('/api/security/sessions').set(u.auth).expect(200);
    const items = list.body.items as { id: string; device: string; current: boolean }[];
    expect(items).toHaveLength(3);
    expect(items.filter((s) => s.current)).toHaveLength(1);
    expect(items.map((s) => s.device)).toEqual(
      expect.arrayContaining(['Safari · iOS', 'Chrome · Android']),
    );
    // Someone else's session id, an unknown one, a malformed one.
    const stranger = await registerUser(api, 'sesx');
    const phoneSession = items.find((s) => s.device === 'Safari · iOS')!;
    await api.http
      .delete(`/api/security/sessions/${phoneSession.id}`)
      .set(stranger.auth)
      .expect(404);
    await api.http.delete('/api/security/sessions/000000000000').set(u.auth).expect(404);
    await api.http.delete('/api/security/sessions/zz').set(u.auth).expect(400);
    await api.http.get('/api/me').set(other).expect(200);
    await api.http.delete(`/api/security/sessions/${phoneSession.id}`).set(u.auth).expect(204);
    await api.http.get('/api/me').set(other).expect(401);
    expect(api.userEvents.ended.at(-1)?.reason).toBe('logout');
    const rest = await api.http.post('/api/security/sessions/end-others').set(u.auth).expect(200);
    expect(rest.body).toEqual({ ended: 1 });
    await api.http
      .get('/api/me')
      .set({ Authorization: `Bearer ${third.body.token as string}` })
      .expect(401);
    await api.http.get('/api/me').set(u.auth).expect(200);
  });

  it('keeps the devices last seen trusted, at most TRUSTED_DEVICES_MAX: signing in without a token again and again does not grow them', async () => {
    const u = await registerUser(api, 'many');
    const tokens: string[] = [];
    for (let i = 0; i < TRUSTED_DEVICES_MAX + 2; i++)
      tokens.push((await login(u).expect(200)).body.device as string);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM trusted_devices WHERE user_id = $1',
      [Number(u.user.id)],
    );
    expect(rows[0]!.n).toBe(TRUSTED_DEVICES_MAX);
    // The newest is still known (no new token); the oldest was pushed out (a new one is given).
    expect((await login(u, { device: tokens.at(-1) }).expect(200)).body.device).toBeUndefined();
    expect((await login(u, { device: tokens[0] }).expect(200)).body.device).toEqual(
      expect.any(String),
    );
  });

  it('tells a new device’s sign-in, not the first one, with the anti-phishing phrase in every security message', async () => {
    const u = await registerUser(api, 'phr');
    expect(await kinds(u)).toEqual([]);
    const wrong = await api.http
      .put('/api/security/anti-phishing')
      .set(u.auth)
      .send({ phrase: 'blue heron', tradePassword: '000000' })
      .expect(403);
    expect(codeOf(wrong)).toBe('WRONG_TRADE_PASSWORD');
    for (const phrase of ['', 'abc', 'x'.repeat(21), '<b>bold</b>', 42])
      await api.http
        .put('/api/security/anti-phishing')
        .set(u.auth)
        .send({ phrase, tradePassword: TRADE_PASSWORD })
        .expect(400);
    await api.http
      .put('/api/security/anti-phishing')
      .set(u.auth)
      .send({ phrase: 'blue heron', tradePassword: TRADE_PASSWORD })
      .expect(200, { phrase: 'blue heron' });
    const second = await login(u, {}, IPHONE_SAFARI).expect(200);
    const [message] = await messagesOf(u);
    expect(message).toMatchObject({
      kind: 'security_sign_in',
      params: { device: 'Safari · iOS', phrase: 'blue heron' },
    });
    expect(message!.body).toContain('blue heron');
    // Signing in again on the same device is no news.
    await login(u, { device: second.body.device }, IPHONE_SAFARI).expect(200);
    expect(await kinds(u)).toEqual(['security_sign_in']);
    // The sign-in page's phrase: only to a device that signed in to the account.
    const phrase = (body: object) =>
      api.http.post('/api/auth/sign-in-phrase').set('X-Forwarded-For', newTestAddress()).send(body);
    expect(
      (await phrase({ account: u.account, device: second.body.device }).expect(200)).body,
    ).toEqual({ phrase: 'blue heron' });
    expect((await phrase({ account: u.account, device: 'forged' }).expect(200)).body).toEqual({
      phrase: null,
    });
    expect((await phrase({ account: 'nobody_here', device: 'forged' }).expect(200)).body).toEqual({
      phrase: null,
    });
    // A password change is told too, with the phrase.
    await api.http
      .post('/api/me/trade-password')
      .set(u.auth)
      .send({ oldPassword: TRADE_PASSWORD, newPassword: '654321', confirmPassword: '654321' })
      .expect(204);
    expect((await messagesOf(u))[0]).toMatchObject({
      kind: 'security_password',
      params: { which: 'trade', phrase: 'blue heron' },
    });
  });

  it('holds a new withdrawal account for 24 hours on the platform clock, and tells both the binding and the request', async () => {
    const u = await registerUser(api, 'hold');
    await verifyKyc(api, u);
    await fund(api, u, 100_000);
    const bound = await api.http
      .post('/api/withdrawal-accounts')
      .set(u.auth)
      .send(bankAccountBody)
      .expect(201);
    const usableAt = bound.body.usableAt as number;
    expect(usableAt - clock.now()).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(usableAt - clock.now()).toBeLessThanOrEqual(24 * 3_600_000);
    // Both times are one reading of the platform clock: the hold shown is exactly 24 h.
    expect(usableAt - (bound.body.createdAt as number)).toBe(24 * 3_600_000);
    const ask = () =>
      api.http
        .post('/api/withdrawals')
        .set(u.auth)
        .send({ accountId: bound.body.id, amount: 20_000, tradePassword: TRADE_PASSWORD });
    const early = await ask().expect(409);
    expect(early.body.error).toMatchObject({ code: 'ACCOUNT_ON_HOLD', field: 'accountId' });
    const summary = await api.http.get('/api/account/summary').set(u.auth).expect(200);
    expect(summary.body).toMatchObject({ available: 100_000, withdrawHold: 0 });
    clock.advance(24 * 3_600_000);
    await ask().expect(201);
    expect(await kinds(u)).toEqual(
      expect.arrayContaining(['security_withdrawal_account', 'security_withdrawal']),
    );
    const request = (await messagesOf(u)).find((m) => m.kind === 'security_withdrawal')!;
    expect(request.params.amount).toBe(20_000);
  });

  it('resets a forgotten password with a code and the transaction password: every session ends', async () => {
    const plain = await registerUser(api, 'rsa');
    const reset = (body: object) =>
      api.http.post('/api/auth/reset').set('X-Forwarded-For', newTestAddress()).send(body);
    const base = { newPassword: 'new horse 123', confirmPassword: 'new horse 123' };
    // Without two-factor: customer support (told only after the transaction password).
    expect(
      codeOf(
        await reset({
          ...base,
          account: plain.account,
          code: '123456',
          tradePassword: '000000',
        }).expect(401),
      ),
    ).toBe('BAD_CREDENTIALS');
    expect(
      codeOf(
        await reset({
          ...base,
          account: plain.account,
          code: '123456',
          tradePassword: TRADE_PASSWORD,
        }).expect(409),
      ),
    ).toBe('TWO_FACTOR_OFF');
    expect(
      codeOf(
        await reset({
          ...base,
          account: 'nobody_here',
          code: '123456',
          tradePassword: '123456',
        }).expect(401),
      ),
    ).toBe('BAD_CREDENTIALS');
    // With two-factor on.
    const u = await registerUser(api, 'rsb');
    const { secret } = (
      await api.http
        .post('/api/security/two-factor/enrol')
        .set(u.auth)
        .send({ tradePassword: TRADE_PASSWORD })
        .expect(200)
    ).body as { secret: string };
    const codes = (
      await api.http
        .post('/api/security/two-factor/confirm')
        .set(u.auth)
        .send({ code: await generate({ secret }) })
        .expect(200)
    ).body.codes as string[];
    const mismatch = await reset({
      account: u.account,
      code: codes[0],
      tradePassword: TRADE_PASSWORD,
      newPassword: 'new horse 123',
      confirmPassword: 'other horse 1',
    }).expect(400);
    expect(codeOf(mismatch)).toBe('PASSWORD_MISMATCH');
    const badCode = await reset({
      ...base,
      account: u.account,
      code: 'ABCDE-FGHJK',
      tradePassword: TRADE_PASSWORD,
    }).expect(401);
    expect(codeOf(badCode)).toBe('TWO_FACTOR_CODE_WRONG');
    await reset({
      ...base,
      account: u.account,
      code: codes[0],
      tradePassword: TRADE_PASSWORD,
    }).expect(204);
    await api.http.get('/api/me').set(u.auth).expect(401);
    // The old password no longer signs in; the new one does (with a code, on a new device).
    await login(u).expect(401);
    const after = await login({ ...u, password: 'new horse 123' }, { code: codes[1] }).expect(200);
    expect(after.body.token).toEqual(expect.any(String));
    expect(
      (await messagesOf({ ...u, auth: { Authorization: `Bearer ${after.body.token}` } })).map(
        (m) => m.kind,
      ),
    ).toEqual(expect.arrayContaining(['security_password', 'security_two_factor_on']));
  });
});
