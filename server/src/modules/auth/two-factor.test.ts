import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, newTestAddress, registerUser, type TestApi } from '@tests/support/api';
import { bankAccountBody, fund, TRADE_PASSWORD, verifyKyc } from '@tests/support/wallet';

type User = Awaited<ReturnType<typeof registerUser>>;

/** The code an authenticator app shows `steps` time steps (30 s) from now. */
const codeAt = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

describe.each(dbDrivers())('two-factor sign-in on %s', (kind) => {
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

  const state = async (u: User) =>
    (await api.http.get('/api/security/two-factor').set(u.auth).expect(200)).body as {
      enabled: boolean;
      pending: boolean;
      recoveryCodesLeft: number;
    };
  const login = (u: User, extra: object = {}, from = newTestAddress()) =>
    api.http
      .post('/api/auth/login')
      .set('X-Forwarded-For', from)
      .send({ account: u.account, password: u.password, ...extra });
  const codeOf = (res: { body: { error?: { code?: string } } }) => res.body.error?.code;

  /** A user with two-factor on: its secret and its ten recovery codes. */
  async function enrolled(prefix: string) {
    const u = await registerUser(api, prefix);
    const enrol = await api.http
      .post('/api/security/two-factor/enrol')
      .set(u.auth)
      .send({ tradePassword: TRADE_PASSWORD })
      .expect(200);
    const { secret, otpauthUri } = enrol.body as { secret: string; otpauthUri: string };
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauthUri).toContain(`secret=${secret}`);
    expect(await state(u)).toEqual({ enabled: false, pending: true, recoveryCodesLeft: 0 });
    const confirm = await api.http
      .post('/api/security/two-factor/confirm')
      .set(u.auth)
      .send({ code: await codeAt(secret) })
      .expect(200);
    const codes = (confirm.body as { codes: string[] }).codes;
    return { u, secret, codes };
  }

  it('enrols with the transaction password and turns on with a first code: ten recovery codes, shown once', async () => {
    const u = await registerUser(api, 'tfa');
    expect(await state(u)).toEqual({ enabled: false, pending: false, recoveryCodesLeft: 0 });
    const wrong = await api.http
      .post('/api/security/two-factor/enrol')
      .set(u.auth)
      .send({ tradePassword: '000000' })
      .expect(403);
    expect(codeOf(wrong)).toBe('WRONG_TRADE_PASSWORD');
    // Confirming before enrolling: nothing to confirm.
    const early = await api.http
      .post('/api/security/two-factor/confirm')
      .set(u.auth)
      .send({ code: '123456' })
      .expect(409);
    expect(codeOf(early)).toBe('TWO_FACTOR_OFF');

    const { u: on, secret, codes } = await enrolled('tfb');
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/);
    expect(await state(on)).toEqual({ enabled: true, pending: false, recoveryCodesLeft: 10 });
    // On once: neither a new secret nor a second confirmation (which would hand out new codes).
    const again = await api.http
      .post('/api/security/two-factor/enrol')
      .set(on.auth)
      .send({ tradePassword: TRADE_PASSWORD })
      .expect(409);
    expect(codeOf(again)).toBe('TWO_FACTOR_ON');
    const reconfirm = await api.http
      .post('/api/security/two-factor/confirm')
      .set(on.auth)
      .send({ code: await codeAt(secret, 1) })
      .expect(409);
    expect(codeOf(reconfirm)).toBe('TWO_FACTOR_ON');
  });

  it('refuses a wrong first code, and bad codes with 400 naming the field', async () => {
    const u = await registerUser(api, 'tfc');
    const { secret } = (
      await api.http
        .post('/api/security/two-factor/enrol')
        .set(u.auth)
        .send({ tradePassword: TRADE_PASSWORD })
        .expect(200)
    ).body as { secret: string };
    const right = await codeAt(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    const res = await api.http
      .post('/api/security/two-factor/confirm')
      .set(u.auth)
      .send({ code: wrong })
      .expect(400);
    expect(codeOf(res)).toBe('TWO_FACTOR_CODE_WRONG');
    for (const code of ['', '12345', '1234567', 'abc', 12345, null, 'x'.repeat(500)]) {
      const bad = await api.http
        .post('/api/security/two-factor/confirm')
        .set(u.auth)
        .send({ code })
        .expect(400);
      expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'code' });
    }
    expect(await state(u)).toMatchObject({ enabled: false, pending: true });
  });

  it('asks for a code at sign-in on a new device, never takes one twice, and trusts the device it signed in', async () => {
    const { u, secret, codes } = await enrolled('tfd');
    const bare = await login(u).expect(401);
    expect(codeOf(bare)).toBe('TWO_FACTOR_REQUIRED');
    expect(bare.body.token).toBeUndefined();
    // The code that turned it on was taken: a replay of it signs nobody in.
    const replay = await login(u, { code: await codeAt(secret) }).expect(401);
    expect(codeOf(replay)).toBe('TWO_FACTOR_CODE_WRONG');
    // The next time step's code (a phone's clock a little ahead) is taken, once.
    const next = await codeAt(secret, 1);
    const first = await login(u, { code: next }).expect(200);
    expect(first.body.token).toEqual(expect.any(String));
    const device = first.body.device as string;
    expect(device).toEqual(expect.any(String));
    expect(codeOf(await login(u, { code: next }).expect(401))).toBe('TWO_FACTOR_CODE_WRONG');
    // The trusted device signs in with the password alone; another token is no device of it.
    const trusted = await login(u, { device }).expect(200);
    expect(trusted.body.device).toBeUndefined();
    expect(codeOf(await login(u, { device: 'forged-token' }).expect(401))).toBe(
      'TWO_FACTOR_REQUIRED',
    );
    // A wrong password is still only a wrong password: the code is never asked for before it.
    const badPassword = await api.http
      .post('/api/auth/login')
      .set('X-Forwarded-For', newTestAddress())
      .send({ account: u.account, password: 'wrong password 1' })
      .expect(401);
    expect(codeOf(badPassword)).toBe('BAD_CREDENTIALS');
    // A recovery code signs in once, in either case and without its dash.
    const recovery = codes[0]!.toLowerCase().replace('-', '');
    await login(u, { code: recovery }).expect(200);
    expect(codeOf(await login(u, { code: codes[0] }).expect(401))).toBe('TWO_FACTOR_CODE_WRONG');
    expect(await state(u)).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it('throttles wrong codes per address: the stranger is stopped, the owner elsewhere is not', async () => {
    const { u, secret } = await enrolled('tfe');
    const stranger = newTestAddress();
    const right = await codeAt(secret, 1);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++)
      expect(codeOf(await login(u, { code: wrong }, stranger).expect(401))).toBe(
        'TWO_FACTOR_CODE_WRONG',
      );
    // The stranger's sixth try is refused before it is checked, even with the right code.
    expect(codeOf(await login(u, { code: right }, stranger).expect(429))).toBe('TOO_MANY_ATTEMPTS');
    // The owner, from their own address, signs in with the code.
    await login(u, { code: right }).expect(200);
  });

  it('asks for a code to bind a withdrawal account, to withdraw and to change a password', async () => {
    const { u, codes } = await enrolled('tff');
    await verifyKyc(api, u);
    const bare = await api.http
      .post('/api/withdrawal-accounts')
      .set(u.auth)
      .send(bankAccountBody)
      .expect(403);
    expect(codeOf(bare)).toBe('TWO_FACTOR_REQUIRED');
    const wrongCode = await api.http
      .post('/api/withdrawal-accounts')
      .set(u.auth)
      .send({ ...bankAccountBody, code: 'ABCDE-FGHJK' })
      .expect(400);
    expect(codeOf(wrongCode)).toBe('TWO_FACTOR_CODE_WRONG');
    const bound = await api.http
      .post('/api/withdrawal-accounts')
      .set(u.auth)
      .send({ ...bankAccountBody, code: codes[1] })
      .expect(201);
    await fund(api, u, 100_000);
    const withdrawal = { accountId: bound.body.id, amount: 20_000, tradePassword: TRADE_PASSWORD };
    const noCode = await api.http.post('/api/withdrawals').set(u.auth).send(withdrawal).expect(403);
    expect(codeOf(noCode)).toBe('TWO_FACTOR_REQUIRED');
    // A used recovery code moves no money.
    const used = await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .send({ ...withdrawal, code: codes[1] })
      .expect(400);
    expect(codeOf(used)).toBe('TWO_FACTOR_CODE_WRONG');
    const summary = await api.http.get('/api/account/summary').set(u.auth).expect(200);
    expect(summary.body.withdrawHold).toBe(0);
    const made = await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .set('Idempotency-Key', 'tfa-withdrawal-1')
      .send({ ...withdrawal, code: codes[2] })
      .expect(201);
    // A retry of it (a lost answer) gets the same withdrawal, though its code is spent now.
    const retry = await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .set('Idempotency-Key', 'tfa-withdrawal-1')
      .send({ ...withdrawal, code: codes[2] })
      .expect(201);
    expect(retry.body.id).toBe(made.body.id);
    // The same request twice at once (a double tap, a client retrying early): one withdrawal,
    // both answered with it, one code spent.
    const twice = () =>
      api.http
        .post('/api/withdrawals')
        .set(u.auth)
        .set('Idempotency-Key', 'tfa-withdrawal-2')
        .send({ ...withdrawal, code: codes[4] });
    const [one, two] = await Promise.all([twice(), twice()]);
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(two.body.id).toBe(one.body.id);
    expect(one.body.id).not.toBe(made.body.id);
    const change = {
      oldPassword: u.password,
      newPassword: 'correct horse 2',
      confirmPassword: 'correct horse 2',
    };
    const pw = await api.http.post('/api/me/password').set(u.auth).send(change).expect(403);
    expect(codeOf(pw)).toBe('TWO_FACTOR_REQUIRED');
    await api.http
      .post('/api/me/password')
      .set(u.auth)
      .send({ ...change, code: codes[3] })
      .expect(204);
  });

  it('turns off with a code: sign-in and withdrawals need the password alone again', async () => {
    const { u, codes } = await enrolled('tfg');
    const wrong = await api.http
      .post('/api/security/two-factor/disable')
      .set(u.auth)
      .send({ code: 'ABCDE-FGHJK' })
      .expect(400);
    expect(codeOf(wrong)).toBe('TWO_FACTOR_CODE_WRONG');
    await api.http
      .post('/api/security/two-factor/disable')
      .set(u.auth)
      .send({ code: codes[9] })
      .expect(204);
    expect(await state(u)).toEqual({ enabled: false, pending: false, recoveryCodesLeft: 0 });
    // A device it has not seen signs in with the password alone (and is given its token).
    const res = await login(u).expect(200);
    expect(res.body.device).toEqual(expect.any(String));
    const off = await api.http
      .post('/api/security/two-factor/disable')
      .set(u.auth)
      .send({ code: codes[8] })
      .expect(409);
    expect(codeOf(off)).toBe('TWO_FACTOR_OFF');
  });

  it('two confirmations at once with the same code turn it on once', async () => {
    const u = await registerUser(api, 'tfh');
    const { secret } = (
      await api.http
        .post('/api/security/two-factor/enrol')
        .set(u.auth)
        .send({ tradePassword: TRADE_PASSWORD })
        .expect(200)
    ).body as { secret: string };
    const code = await codeAt(secret);
    const answers = await Promise.all(
      [0, 1].map(() =>
        api.http.post('/api/security/two-factor/confirm').set(u.auth).send({ code }),
      ),
    );
    // The other is told the code was taken (400) or, if it read after the first, that it is on (409).
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0]).toBe(200);
    expect([400, 409]).toContain(statuses[1]);
    expect(await state(u)).toEqual({ enabled: true, pending: false, recoveryCodesLeft: 10 });
  });
});
