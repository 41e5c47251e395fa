import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, type TestApi } from '@tests/support/api';

const pw = 'correct horse 1';
const body = (account: string, acceptTerms?: unknown) => ({
  account,
  phone: '+8613800138000',
  inviteCode: 'WELCOME',
  password: pw,
  passwordConfirm: pw,
  tradePassword: '123456',
  tradePasswordConfirm: '123456',
  ...(acceptTerms === undefined ? {} : { acceptTerms }),
});

/** Registration records the terms and risk disclosure accepted, by version (DECISIONS.md). */
describe.each(dbDrivers())('terms consent at registration on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { env: { TERMS_VERSION: '2027-03' } });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const consentOf = async (account: string) => {
    const { rows } = await t.db.query<{ terms_version: string | null; accepted: Date | null }>(
      'SELECT terms_version, terms_accepted_at AS accepted FROM users WHERE account = $1',
      [account],
    );
    return rows[0];
  };

  it('tells the client which version to accept', async () => {
    const res = await api.http.get('/api/app-info').expect(200);
    expect(res.body).toMatchObject({
      termsVersion: '2027-03',
      legalEntity: 'Example Trading Ltd (demo)',
      showCreditScore: true,
    });
    expect(res.body).not.toHaveProperty('riskWarning');
    expect(res.body).not.toHaveProperty('logoUrl');
  });

  it('stores the version accepted and when', async () => {
    const before = Date.now();
    await api.http.post('/api/auth/register').send(body('consent_1', '2027-03')).expect(201);
    const consent = await consentOf('consent_1');
    expect(consent?.terms_version).toBe('2027-03');
    expect(consent?.accepted?.getTime()).toBeGreaterThanOrEqual(before - 5000);
    expect(consent?.accepted?.getTime()).toBeLessThanOrEqual(Date.now() + 5000);
  });

  it.each([
    ['missing', undefined],
    ['false', false],
    ['true (no version)', true],
    ['a stale version', '2026-11'],
    ['an empty string', ''],
  ])('refuses %s with 400 TERMS_NOT_ACCEPTED on acceptTerms, writing nothing', async (_, v) => {
    const account = `noconsent_${String(v).replace(/\W/g, '').slice(0, 8) || 'x'}`;
    const res = await api.http.post('/api/auth/register').send(body(account, v)).expect(400);
    expect(res.body).toMatchObject({
      error: { code: 'TERMS_NOT_ACCEPTED', field: 'acceptTerms' },
    });
    expect(await consentOf(account)).toBeUndefined();
  });

  it('keeps a phone number with its country code as sent', async () => {
    await api.http
      .post('/api/auth/register')
      .send({ ...body('consent_phone', '2027-03'), phone: '+819012345678' })
      .expect(201);
    const { rows } = await t.db.query<{ phone: string }>(
      'SELECT phone FROM users WHERE account = $1',
      ['consent_phone'],
    );
    expect(rows[0]?.phone).toBe('+819012345678');
  });
});
