import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import {
  bankAccountBody,
  bindBank,
  readyUser,
  postKyc,
  TRADE_PASSWORD,
  verifiedUser,
  verifyKyc,
} from '@tests/support/wallet';

const trc20 = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const erc20 = '0x52908400098527886E0F7030069857D2E4169EE7';
const coinBody = (network: string, address: string) => ({
  type: 'coin',
  network,
  address,
  tradePassword: TRADE_PASSWORD,
});

/** Binding withdrawal accounts: the forms per country, the holder, the rules (withdrawals.test.ts has the withdrawals). */
describe.each(dbDrivers())('withdrawal accounts on %s', (kind) => {
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

  describe('withdrawal accounts', () => {
    let refused: Awaited<ReturnType<typeof registerUser>> | undefined;
    it('binds one bank card and one coin address, then refuses a second of either', async () => {
      const u = await verifiedUser(api, 'acct');
      const bank = await api.http
        .post('/api/withdrawal-accounts')
        .set(u.auth)
        .send({ ...bankAccountBody, nationality: 'cn', bankAddress: '1 Test Road' })
        .expect(201);
      expect(bank.body).toMatchObject({
        type: 'bank',
        holderName: 'Zhang San',
        nationality: 'CN',
        cardNumber: '6222020012345678',
        bankAddress: '1 Test Road',
      });
      const coin = await api.http
        .post('/api/withdrawal-accounts')
        .set(u.auth)
        .send(coinBody('TRC20', trc20))
        .expect(201);
      expect(coin.body).toMatchObject({ type: 'coin', network: 'TRC20', address: trc20 });
      for (const body of [bankAccountBody, coinBody('ERC20', erc20)]) {
        const again = await api.http
          .post('/api/withdrawal-accounts')
          .set(u.auth)
          .send(body)
          .expect(409);
        expect(again.body.error).toMatchObject({ code: 'ACCOUNT_ALREADY_BOUND', field: 'type' });
      }
      const list = await api.http.get('/api/withdrawal-accounts').set(u.auth).expect(200);
      expect((list.body as { id: string }[]).map((a) => a.id)).toEqual([
        bank.body.id,
        coin.body.id,
      ]);
      const detail = await api.http
        .get(`/api/withdrawal-accounts/${coin.body.id}`)
        .set(u.auth)
        .expect(200);
      expect(detail.body).toEqual(coin.body);
    });

    it('lets exactly one of several concurrent binds of one type through', async () => {
      const u = await verifiedUser(api, 'acct');
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          api.http.post('/api/withdrawal-accounts').set(u.auth).send(bankAccountBody),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
      const list = await api.http.get('/api/withdrawal-accounts').set(u.auth).expect(200);
      expect(list.body).toHaveLength(1);
    });

    it('binds only with the right transaction password: 403 for a wrong one, binding nothing', async () => {
      const u = await verifiedUser(api, 'acct');
      const wrong = await api.http
        .post('/api/withdrawal-accounts')
        .set(u.auth)
        .send({ ...bankAccountBody, tradePassword: '654321' })
        .expect(403);
      expect(wrong.body.error).toMatchObject({
        code: 'WRONG_TRADE_PASSWORD',
        field: 'tradePassword',
      });
      expect((await api.http.get('/api/withdrawal-accounts').set(u.auth)).body).toEqual([]);
      const right = await api.http
        .post('/api/withdrawal-accounts')
        .set(u.auth)
        .send(bankAccountBody)
        .expect(201);
      expect(right.body).not.toHaveProperty('tradePassword');
    });

    it('shares the confirmation throttle with withdrawals: guesses at binding stop at 10, then 429 even for the right one', async () => {
      const u = await readyUser(api, 100_000, 'bindguess');
      const bindCoin = (tradePassword: string) =>
        api.http
          .post('/api/withdrawal-accounts')
          .set(u.auth)
          .send({ ...coinBody('TRC20', trc20), tradePassword });
      const guesses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => bindCoin(String(200_000 + i))),
      );
      expect(guesses.map((r) => `${r.status} ${r.body.error.code}`).sort()).toEqual([
        ...Array<string>(10).fill('403 WRONG_TRADE_PASSWORD'),
        ...Array<string>(2).fill('429 TOO_MANY_ATTEMPTS'),
      ]);
      const right = await bindCoin(TRADE_PASSWORD);
      expect([right.status, right.body.error.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
      // The guesses spent the count withdrawals use too.
      const withdrawal = await api.http
        .post('/api/withdrawals')
        .set(u.auth)
        .send({ accountId: u.accountId, amount: 10_000, tradePassword: TRADE_PASSWORD });
      expect([withdrawal.status, withdrawal.body.error.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
      const list = await api.http.get('/api/withdrawal-accounts').set(u.auth).expect(200);
      expect((list.body as { type: string }[]).map((a) => a.type)).toEqual(['bank']);
    });

    it('shows an account only to its owner', async () => {
      const a = await verifiedUser(api, 'acct');
      const b = await registerUser(api, 'acct');
      const id = await bindBank(api, a);
      await api.http.get(`/api/withdrawal-accounts/${id}`).set(b.auth).expect(404);
      await api.http.get(`/api/withdrawal-accounts/${id}`).expect(401);
      expect((await api.http.get('/api/withdrawal-accounts').set(b.auth).expect(200)).body).toEqual(
        [],
      );
    });

    it.each([
      [coinBody('TRC20', erc20), 'address'],
      [coinBody('ERC20', trc20), 'address'],
      [coinBody('TRC20', `${trc20.slice(0, -1)}0`), 'address'],
      [coinBody('ERC20', `${erc20.slice(0, -1)}g`), 'address'],
      [coinBody('BEP20', erc20), 'network'],
      [{ ...bankAccountBody, cardNumber: '1234567' }, 'cardNumber'],
      [{ ...bankAccountBody, cardNumber: '1'.repeat(31) }, 'cardNumber'],
      [{ ...bankAccountBody, cardNumber: '6222abcd12345678' }, 'cardNumber'],
      [{ ...bankAccountBody, nationality: 'China' }, 'nationality'],
      [{ ...bankAccountBody, nationality: 'XX' }, 'nationality'],
      [{ ...bankAccountBody, holderName: '' }, 'holderName'],
      [{ ...bankAccountBody, bankName: 'x'.repeat(61) }, 'bankName'],
      [{ ...bankAccountBody, tradePassword: undefined }, 'tradePassword'],
      [{ ...bankAccountBody, tradePassword: '' }, 'tradePassword'],
      [{ ...coinBody('TRC20', trc20), tradePassword: '1234567' }, 'tradePassword'],
      [{ type: 'paypal' }, 'type'],
      [{}, 'type'],
    ])('refuses %j naming %s', async (body, field) => {
      const u = (refused ??= await registerUser(api, 'acct'));
      const res = await api.http
        .post('/api/withdrawal-accounts')
        .set(u.auth)
        .send(body)
        .expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
      expect((await api.http.get('/api/withdrawal-accounts').set(u.auth)).body).toEqual([]);
    });
  });

  describe('the holder is the verified identity (issue 33)', () => {
    const bindBankAs = (u: { auth: Record<string, string> }, body: Record<string, unknown>) =>
      api.http
        .post('/api/withdrawal-accounts')
        .set(u.auth)
        .send({ ...bankAccountBody, ...body });
    const bound = async (u: { auth: Record<string, string> }) =>
      (await api.http.get('/api/withdrawal-accounts').set(u.auth).expect(200)).body as unknown[];
    const holderOf = async (u: { auth: Record<string, string> }) =>
      (await api.http.get('/api/withdrawal-accounts/holder').set(u.auth).expect(200))
        .body as unknown;

    it.each([
      ['as verified', 'Zhang San'],
      ['with other spaces and case', '  zhang   SAN '],
      ['with a no-break space', 'Zhang\u00a0San'],
    ])('takes the verified name %s and keeps its spelling', async (_how, typed) => {
      const u = await verifiedUser(api, 'holder');
      expect(await holderOf(u)).toEqual({ holderName: 'Zhang San', verifyFirst: false });
      const res = await bindBankAs(u, { holderName: typed });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.holderName).toBe('Zhang San');
    });

    it('compares after Unicode NFC: a precomposed and a combined accent are one name', async () => {
      const u = await registerUser(api, 'holder');
      // Verified as typed with a combining accent (E + U+0301).
      await verifyKyc(api, u, {
        name: 'E\u0301mile Zola',
        idNumber: 'AB123456',
        nationality: 'FR',
      });
      const res = await bindBankAs(u, {
        holderName: '\u00c9MILE ZOLA',
        nationality: 'FR',
        cardNumber: 'FR14 2004 1010 0505 0001 3M02 606',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.holderName).toBe('E\u0301mile Zola');
    });

    it.each([
      ['another name', 'Li Si'],
      ['one letter off', 'Zhang Sam'],
      ['the names run together', 'ZhangSan'],
      ['the traditional form of a character', '張三'],
    ])('refuses %s with 400 HOLDER_NAME_MISMATCH, binding nothing', async (_how, typed) => {
      const u = await verifiedUser(api, 'holder');
      const res = await bindBankAs(u, { holderName: typed }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'HOLDER_NAME_MISMATCH', field: 'holderName' });
      expect(await bound(u)).toEqual([]);
    });

    it('an identity verified with an invisible mark (before they were refused) binds without it', async () => {
      const u = await verifiedUser(api, 'holder');
      await t.db.query('UPDATE kyc_submissions SET name = $1 WHERE user_id = $2', [
        'Zhang\u200b San\u200f',
        Number(u.user.id),
      ]);
      expect(await holderOf(u)).toEqual({ holderName: 'Zhang San', verifyFirst: false });
      const res = await bindBankAs(u, { holderName: 'Zhang San' }).expect(201);
      expect(res.body.holderName).toBe('Zhang San');
    });

    it('a Chinese identity: the name as verified, and not its traditional form', async () => {
      const u = await registerUser(api, 'holder');
      await verifyKyc(api, u, { name: '张三', idNumber: '11010519491231002X', nationality: 'CN' });
      const wrong = await bindBankAs(u, { holderName: '張三' }).expect(400);
      expect(wrong.body.error.code).toBe('HOLDER_NAME_MISMATCH');
      const right = await bindBankAs(u, { holderName: ' 张三 ' }).expect(201);
      expect(right.body.holderName).toBe('张三');
    });

    it('checks the name before the transaction password: a wrong name costs no attempt', async () => {
      const u = await verifiedUser(api, 'holder');
      for (let i = 0; i < 12; i++) {
        const res = await bindBankAs(u, { holderName: 'Li Si', tradePassword: '654321' });
        expect(res.body.error.code).toBe('HOLDER_NAME_MISMATCH');
      }
      await bindBankAs(u, {}).expect(201);
    });

    it('without a verified identity, where withdrawals need one: 403 KYC_REQUIRED, a coin address still binds', async () => {
      const u = await registerUser(api, 'holder');
      expect(await holderOf(u)).toEqual({ holderName: null, verifyFirst: true });
      const none = await bindBankAs(u, {}).expect(403);
      expect(none.body.error.code).toBe('KYC_REQUIRED');
      // Pending is not verified either.
      await postKyc(api, u.auth).expect(201);
      expect((await bindBankAs(u, {}).expect(403)).body.error.code).toBe('KYC_REQUIRED');
      expect(await bound(u)).toEqual([]);
      await api.http
        .post('/api/withdrawal-accounts')
        .set(u.auth)
        .send(coinBody('TRC20', trc20))
        .expect(201);
    });

    describe('where withdrawals need no verified identity (WITHDRAW_REQUIRES_KYC=false)', () => {
      let open: TestApi;
      beforeAll(async () => {
        open = await buildTestApi(t.db, { env: { WITHDRAW_REQUIRES_KYC: 'false' } });
      });
      afterAll(async () => {
        await open?.close();
      });

      it('a user without one binds in the name typed, as before', async () => {
        const u = await registerUser(open, 'holder');
        const holder = await open.http.get('/api/withdrawal-accounts/holder').set(u.auth);
        expect(holder.body).toEqual({ holderName: null, verifyFirst: false });
        const res = await open.http
          .post('/api/withdrawal-accounts')
          .set(u.auth)
          .send({ ...bankAccountBody, holderName: 'Test Holder' })
          .expect(201);
        expect(res.body.holderName).toBe('Test Holder');
      });

      it('a user with one still binds only in its name', async () => {
        const u = await registerUser(open, 'holder');
        await verifyKyc(open, u);
        const res = await open.http
          .post('/api/withdrawal-accounts')
          .set(u.auth)
          .send({ ...bankAccountBody, holderName: 'Test Holder' })
          .expect(400);
        expect(res.body.error).toMatchObject({ code: 'HOLDER_NAME_MISMATCH', field: 'holderName' });
      });
    });
  });

  describe('bank details by country', () => {
    const bind = async (body: Record<string, unknown>) => {
      const u = await verifiedUser(api, 'iban');
      const res = await api.http.post('/api/withdrawal-accounts').set(u.auth).send(body);
      return { u, res };
    };

    it.each([
      ['DE', 'DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
      ['FR', 'fr14 2004 1010 0505 0001 3m02 606', 'FR1420041010050500013M02606'],
      ['CN', '6222 0200 1234 5678', '6222020012345678'],
      ['KR', '110-123-456789', '110123456789'],
      ['TH', '123-4-56789-0', '1234567890'],
    ])("accepts a %s holder's number %s, stored as %s", async (nationality, typed, stored) => {
      const { res } = await bind({ ...bankAccountBody, nationality, cardNumber: typed });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: 'bank', nationality, cardNumber: stored });
    });

    it.each([
      ['DE', 'DE88 3704 0044 0532 0130 00', /check digits/], // wrong check digits
      ['FR', 'FR14 2004 1010 0505 0001 3M02 607', /check digits/], // one character changed
      ['DE', '6222020012345678', /IBAN/], // a card number where an IBAN is due
      ['CN', 'DE89370400440532013000', /8-30 digits/],
      ['KR', '12345', /6-30 digits/],
      ['JP', '123456', /7 digits/],
    ])("refuses a %s holder's %s with a 400 naming cardNumber", async (nationality, typed, why) => {
      const branch = nationality === 'JP' ? '渋谷支店' : undefined;
      const { u, res } = await bind({ ...bankAccountBody, nationality, branch, cardNumber: typed });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'cardNumber' });
      expect(res.body.error.message).toMatch(why);
      expect((await api.http.get('/api/withdrawal-accounts').set(u.auth)).body).toEqual([]);
    });
  });

  describe('a branch where the country addresses transfers to one', () => {
    const bind = async (body: Record<string, unknown>) => {
      const u = await verifiedUser(api, 'branch');
      const res = await api.http.post('/api/withdrawal-accounts').set(u.auth).send(body);
      return { u, res };
    };
    const jp = {
      ...bankAccountBody,
      nationality: 'JP',
      bankName: 'みずほ銀行',
      cardNumber: '1234567',
    };

    it('binds a Japanese account with its branch, shown back and in the list', async () => {
      const { u, res } = await bind({ ...jp, branch: ' 渋谷支店（123） ' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        type: 'bank',
        nationality: 'JP',
        bankName: 'みずほ銀行',
        branch: '渋谷支店（123）',
        cardNumber: '1234567',
      });
      const list = await api.http.get('/api/withdrawal-accounts').set(u.auth).expect(200);
      expect(list.body).toEqual([res.body]);
    });

    it.each([
      [{ ...jp }, 'branch', /branch is required/],
      [{ ...jp, branch: '  ' }, 'branch', /branch is required/],
      [{ ...jp, branch: 'x'.repeat(61) }, 'branch', /60/],
      [{ ...jp, branch: '渋谷支店', cardNumber: '12345678' }, 'cardNumber', /7 digits/],
    ])('refuses %j with a 400 naming %s', async (body, field, why) => {
      const { u, res } = await bind(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
      expect(res.body.error.message).toMatch(why);
      expect((await api.http.get('/api/withdrawal-accounts').set(u.auth)).body).toEqual([]);
    });

    it('asks no branch elsewhere and leaves it out of the answer', async () => {
      const { res } = await bind({
        ...bankAccountBody,
        nationality: 'KR',
        cardNumber: '110123456789',
      });
      expect(res.status).toBe(201);
      expect(res.body).not.toHaveProperty('branch');
    });
  });
});
