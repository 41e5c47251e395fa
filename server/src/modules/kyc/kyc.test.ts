import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import {
  fund,
  images,
  itemsOf,
  opsAuth,
  postKyc,
  summaryOf,
  type TestUser,
} from '@tests/support/wallet';

const cn = { name: 'Zhang San', idNumber: '11010519491231002x', nationality: 'cn' };

describe.each(dbDrivers())('identity checks on %s', (kind) => {
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

  const state = async (u: TestUser) => {
    const [kyc, me, summary] = await Promise.all([
      api.http.get('/api/kyc').set(u.auth).expect(200),
      api.http.get('/api/me').set(u.auth).expect(200),
      summaryOf(api, u),
    ]);
    return { kyc: kyc.body, me: me.body.kyc, verified: summary.verified };
  };
  const pendingOf = async (u: TestUser) => {
    const res = await api.http.get('/api/ops/kyc?status=pending').set(opsAuth).expect(200);
    return itemsOf<Record<string, string>>(res).find((k) => k.userId === u.user.id)!;
  };

  it('goes none → pending → rejected → pending → verified, and /api/me and the summary follow', async () => {
    const u = await registerUser(api, 'kyc');
    expect(await state(u)).toEqual({
      kyc: { status: 'none' },
      me: { status: 'none' },
      verified: false,
    });

    const first = await postKyc(api, u.auth, cn).expect(201);
    expect(first.body).toEqual({ status: 'pending', submittedAt: expect.any(Number) });
    expect(await state(u)).toMatchObject({ kyc: { status: 'pending' }, me: { status: 'pending' } });
    const again = await postKyc(api, u.auth, cn).expect(409);
    expect(again.body.error.code).toBe('INVALID_STATE');

    const item = await pendingOf(u);
    expect(item).toMatchObject({
      userAccount: u.account,
      name: 'Zhang San',
      idNumber: '11010519491231002X',
      nationality: 'CN',
      status: 'pending',
    });
    const front = await api.http.get(`/api/uploads/${item.frontId}`).set(opsAuth).expect(200);
    expect(front.headers['content-type']).toBe('image/jpeg');
    await api.http.get(`/api/uploads/${item.backId}`).set(opsAuth).expect(200);

    const rejected = await api.http
      .post(`/api/ops/kyc/${item.id}/reject`)
      .set(opsAuth)
      .send({ reason: 'Photo is blurred' })
      .expect(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', reason: 'Photo is blurred' });
    expect(await state(u)).toEqual({
      kyc: { status: 'rejected', reason: 'Photo is blurred', submittedAt: expect.any(Number) },
      me: { status: 'rejected', reason: 'Photo is blurred' },
      verified: false,
    });
    for (const action of ['approve', 'reject'])
      expect(
        (
          await api.http
            .post(`/api/ops/kyc/${item.id}/${action}`)
            .set(opsAuth)
            .send({ reason: 'again' })
            .expect(409)
        ).body.error.code,
      ).toBe('INVALID_STATE');

    await postKyc(api, u.auth, {
      name: 'John Smith',
      idNumber: 'P1234567',
      nationality: 'GB',
    }).expect(201);
    const second = await pendingOf(u);
    expect(second.id).not.toBe(item.id);
    await api.http.post(`/api/ops/kyc/${second.id}/approve`).set(opsAuth).expect(200);
    expect(await state(u)).toEqual({
      kyc: { status: 'verified', submittedAt: expect.any(Number) },
      me: { status: 'verified' },
      verified: true,
    });
    expect(api.userEvents.sent.at(-1)).toMatchObject({
      userId: u.user.id,
      event: 'balance',
      payload: { verified: true },
    });
    const login = await api.http
      .post('/api/auth/login')
      .send({ account: u.account, password: u.password })
      .expect(200);
    expect(login.body.user.kyc).toEqual({ status: 'verified' });
    expect((await postKyc(api, u.auth, cn).expect(409)).body.error.code).toBe('INVALID_STATE');
    await api.http.post(`/api/ops/kyc/${second.id}/approve`).set(opsAuth).expect(409);
  });

  it('refuses withdrawals with KYC_REQUIRED until the identity is verified', async () => {
    const u = await registerUser(api, 'kyc');
    // A coin address: a bank account itself waits for the verified name (withdrawals.test.ts).
    const bound = await api.http
      .post('/api/withdrawal-accounts')
      .set(u.auth)
      .send({
        type: 'coin',
        network: 'ERC20',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        tradePassword: '123456',
      })
      .expect(201);
    const accountId = bound.body.id as string;
    await fund(api, u, 50_000);
    const withdraw = () =>
      api.http
        .post('/api/withdrawals')
        .set(u.auth)
        .send({ accountId, amount: 10_000, tradePassword: '123456' });
    expect((await withdraw().expect(403)).body.error.code).toBe('KYC_REQUIRED');
    await postKyc(api, u.auth, cn).expect(201);
    expect((await withdraw().expect(403)).body.error.code).toBe('KYC_REQUIRED');
    await api.http
      .post(`/api/ops/kyc/${(await pendingOf(u)).id}/approve`)
      .set(opsAuth)
      .expect(200);
    await withdraw().expect(201);
  });

  it('lets exactly one of several concurrent submissions through', async () => {
    const u = await registerUser(api, 'kyc');
    const answers = await Promise.all([1, 2, 3, 4].map(() => postKyc(api, u.auth, cn)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM kyc_submissions WHERE user_id = $1',
      [Number(u.user.id)],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('keeps identity photos from other users and from anonymous callers', async () => {
    const a = await registerUser(api, 'kyc');
    const b = await registerUser(api, 'kyc');
    await postKyc(api, a.auth, cn).expect(201);
    const item = await pendingOf(a);
    await api.http.get(`/api/uploads/${item.frontId}`).set(a.auth).expect(200);
    await api.http.get(`/api/uploads/${item.frontId}`).set(b.auth).expect(404);
    await api.http.get(`/api/uploads/${item.backId}`).expect(401);
    await api.http.get('/api/kyc').expect(401);
    await postKyc(api, {}, cn).expect(401);
    // A trader's session is no operator credential.
    await api.http.get('/api/ops/kyc').set(a.auth).expect(401);
  });

  describe('refuses bad submissions with a 4xx naming the field, writing nothing', () => {
    let u: TestUser;
    beforeAll(async () => {
      u = await registerUser(api, 'kyc');
    });
    it.each([
      [{ ...cn, name: 'Z' }, 'name'],
      [{ ...cn, name: 'x'.repeat(51) }, 'name'],
      [{ idNumber: cn.idNumber, nationality: 'CN' }, 'name'],
      [{ ...cn, nationality: 'China' }, 'nationality'],
      [{ ...cn, nationality: 'ZZ' }, 'nationality'],
      [{ ...cn, idNumber: '1234567890123456' }, 'idNumber'],
      [{ ...cn, idNumber: '11010519491231002Y' }, 'idNumber'],
      [{ ...cn, idNumber: '11010519491231002X1' }, 'idNumber'],
      [{ ...cn, nationality: 'US', idNumber: 'A12' }, 'idNumber'],
      [{ ...cn, nationality: 'US', idNumber: 'A1-2345' }, 'idNumber'],
      [{ ...cn, nationality: 'US', idNumber: 'A'.repeat(31) }, 'idNumber'],
      [{ ...cn, idNumber: '' }, 'idNumber'],
    ])('%j → %s', async (fields, field) => {
      const res = await postKyc(api, u.auth, fields).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
      expect((await api.http.get('/api/kyc').set(u.auth)).body.status).toBe('none');
    });
    it.each([
      [{ front: null, back: images.png }, 400, 'VALIDATION_FAILED', 'front'],
      [{ front: images.png, back: null }, 400, 'VALIDATION_FAILED', 'back'],
      [{ front: images.text, back: images.png }, 400, 'UPLOAD_INVALID', 'front'],
      [{ front: images.png, back: images.svg }, 400, 'UPLOAD_INVALID', 'back'],
      [{ front: images.gif, back: images.gif }, 400, 'UPLOAD_INVALID', 'front'],
    ])('photos %# → %i %s naming %s', async (photos, status, code, field) => {
      const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploads');
      const res = await postKyc(api, u.auth, cn, photos).expect(status);
      expect(res.body.error).toMatchObject({ code, field });
      expect((await api.http.get('/api/kyc').set(u.auth)).body.status).toBe('none');
      const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploads');
      expect(after.rows[0]!.n).toBe(rows[0]!.n);
    });
    it('accepts a 15-digit Chinese ID and a passport-style number elsewhere', async () => {
      await postKyc(api, u.auth, { ...cn, idNumber: '110105491231002' }).expect(201);
    });
  });

  it('answers 404 for unknown ids and 400 for malformed ones in operator calls', async () => {
    await api.http.post('/api/ops/kyc/987654321/approve').set(opsAuth).expect(404);
    await api.http.post('/api/ops/kyc/abc/approve').set(opsAuth).expect(400);
    await api.http.post('/api/ops/kyc/1/reject').set(opsAuth).send({}).expect(400);
    await api.http.get('/api/ops/kyc?status=weird').set(opsAuth).expect(400);
  });
});
