import fs from 'node:fs';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers } from '@tests/support/db';
import { jsonType, openFuzzWorld, type FuzzWorld } from '@tests/support/fuzz-world';
import { multipart, type RawAnswer } from '@tests/support/raw-http';
import { bankAccountBody, bankDepositFields, images, opsAuth } from '@tests/support/wallet';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';

/**
 * The refusals a client can rely on, by name: bodies past the limit, broken path escapes, ids
 * that are no ids, other people's ids, free text with control or bidi characters, and a refused
 * deposit that leaves nothing behind. input-fuzz.test.ts sweeps every endpoint for 5xx.
 */
describe.each(dbDrivers())('input refusals on %s', (kind) => {
  let w: FuzzWorld;
  beforeAll(async () => {
    w = await openFuzzWorld(kind);
  });
  afterAll(async () => {
    await w?.close();
  });

  it('a body past 64 kB, or a gzip that inflates past it → 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ account: 'x'.repeat(100_000) });
    for (const [headers, body] of [
      [jsonType, big],
      [{ ...jsonType, 'content-encoding': 'gzip' }, zlib.gzipSync(big)],
      [{ ...jsonType, 'transfer-encoding': 'chunked' }, big],
    ] as const) {
      const a = await w.server.send({ method: 'POST', path: '/api/auth/login', headers, body });
      expect(a.status).toBe(413);
      expect(a.json).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE', field: 'body' } });
    }
  });

  it('a broken %-escape in a path → 400 VALIDATION_FAILED', async () => {
    for (const path of ['/api/pages/%E0%A4%A', '/api/news/%', '/api/withdrawal-accounts/%zz']) {
      const a = await w.server.send({ method: 'GET', path, headers: w.auth.user });
      expect(a.status, path).toBe(400);
      expect(a.json).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'path' } });
    }
  });

  it('ids like abc, 1e999, -1 or 99999999999999999999 → 400 or 404 on every path with an id', async () => {
    const withId = w.ops.filter((o) => o.pathParams.includes('id'));
    expect(withId.length).toBeGreaterThan(10);
    const { problems } = await w.sweep(
      withId.flatMap((op) =>
        ['abc', '1e999', '-1', '99999999999999999999', '1.5', '%00'].map((id) => ({
          method: op.method,
          path: w.urlOf(op, { id }),
          headers: { ...jsonType, ...w.headersFor(op, op.caller) },
          body: op.method === 'GET' ? undefined : JSON.stringify(w.sampleBody(op)),
          also: (a: RawAnswer) => ([400, 404].includes(a.status) ? null : `answered ${a.status}`),
        })),
      ),
    );
    expect(problems).toEqual([]);
  });

  it("another user's account, upload and message are 404 to the signed-in user", async () => {
    for (const path of [
      `/api/withdrawal-accounts/${w.theirs.account}`,
      `/api/uploads/${w.theirs.upload}`,
    ]) {
      const a = await w.server.send({ method: 'GET', path, headers: w.auth.user });
      expect(a.status, path).toBe(404);
    }
    const read = await w.server.send({
      method: 'POST',
      path: `/api/messages/${w.theirs.message}/read`,
      headers: w.auth.user,
    });
    expect(read.status).toBe(404);
  });

  it('free text refuses control and bidi characters by field; bodies keep line breaks', async () => {
    const send = (path: string, headers: Record<string, string>, body: unknown) =>
      w.server.send({
        method: 'POST',
        path,
        headers: { ...jsonType, ...headers },
        body: JSON.stringify(body),
      });
    const cases: [string, Record<string, string>, unknown, string][] = [
      [
        '/api/withdrawal-accounts',
        w.auth.user,
        { ...bankAccountBody, holderName: 'A\u202eB' },
        'holderName',
      ],
      [
        '/api/withdrawal-accounts',
        w.auth.user,
        { ...bankAccountBody, bankName: 'Bank\u0000' },
        'bankName',
      ],
      [
        '/api/withdrawal-accounts',
        w.auth.user,
        { ...bankAccountBody, bankAddress: 'Road\n1' },
        'bankAddress',
      ],
      ['/api/ops/news', opsAuth, { lang: 'en', title: 'T\u2066', body: 'b' }, 'title'],
      ['/api/ops/news', opsAuth, { lang: 'en', title: 'T', body: 'b\u0000' }, 'body'],
      ['/api/ops/news', opsAuth, { lang: 'en', title: 'T', body: 'b\ud800' }, 'body'],
      ['/api/ops/messages', opsAuth, { title: 'T\n', body: 'b' }, 'title'],
      [`/api/ops/deposits/${w.theirs.deposit}/reject`, opsAuth, { reason: 'no\u0007' }, 'reason'],
    ];
    for (const [path, headers, body, field] of cases) {
      const a = await send(path, headers, body);
      expect(a.status, `${path} ${field}`).toBe(400);
      expect(a.json).toMatchObject({ error: { code: 'VALIDATION_FAILED', field } });
    }
    const news = await send('/api/ops/news', opsAuth, {
      lang: 'en',
      title: 'Two lines',
      body: 'First\n\n- item\twith a tab\r\nlast',
    });
    expect(news.status).toBe(201);
    expect((news.json as { body: string }).body).toBe('First\n\n- item\twith a tab\r\nlast');
    const q = await w.server.send({ method: 'GET', path: '/api/market/products?q=BTC%00' });
    expect(q.json).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'q' } });
    const id = await w.server.send({ method: 'GET', path: '/api/market/products/BTC%E2%80%AE' });
    expect(id.json).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'id' } });
  });

  it('names refuse invisible characters by field, writing nothing; other free text keeps them', async () => {
    // RLM, ALM, LRM, zero-width space, non-joiner and joiner, word joiner, BOM, soft hyphen, a
    // variation selector, the Hangul filler, a tag character: each prints as nothing.
    const invisible = [
      '\u200f',
      '\u061c',
      '\u200e',
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\ufeff',
      '\u00ad',
      '\ufe0f',
      '\u3164',
      '\u{e0041}',
    ];
    const rows = async () =>
      (
        await w.t.db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM withdrawal_accounts) + (SELECT count(*) FROM deposits)
                + (SELECT count(*) FROM kyc_submissions) + (SELECT count(*) FROM uploads) AS n`,
        )
      ).rows[0]!.n;
    const before = await rows();
    const formOf = (fields: Record<string, string>, files: string[]) =>
      multipart([
        ...Object.entries(fields).map(([name, value]) => ({ name, value })),
        ...files.map((name) => ({ name, file: images.png })),
      ]);
    const post = (path: string, f: { body: Buffer; type: string }) =>
      w.server.send({
        method: 'POST',
        path,
        headers: { ...w.auth.user, 'content-type': f.type },
        body: f.body,
      });
    const kycFields = { name: 'Zhang San', idNumber: '11010519491231002X', nationality: 'CN' };
    const wrong: string[] = [];
    for (const ch of invisible) {
      const name = `Zhang${ch} San`;
      const answers: [string, RawAnswer][] = [
        [
          'holderName',
          await w.server.send({
            method: 'POST',
            path: '/api/withdrawal-accounts',
            headers: { ...jsonType, ...w.auth.user },
            body: JSON.stringify({ ...bankAccountBody, holderName: name }),
          }),
        ],
        [
          'payerName',
          await post(
            '/api/deposits',
            formOf({ ...bankDepositFields(10_000), payerName: name }, ['screenshot']),
          ),
        ],
        ['name', await post('/api/kyc', formOf({ ...kycFields, name }, ['front', 'back']))],
      ];
      for (const [field, a] of answers) {
        const e = (a.json as { error?: { code?: string; field?: string } } | undefined)?.error;
        if (a.status !== 400 || e?.code !== 'VALIDATION_FAILED' || e.field !== field)
          wrong.push(`${field} with U+${ch.codePointAt(0)!.toString(16)}: ${a.status} ${a.text}`);
      }
    }
    // The account name itself: letters, digits and underscores, and nothing invisible around them
    // either (a BOM is no whitespace, though trimming would drop it).
    for (const ch of invisible)
      for (const path of ['/api/auth/register/check', '/api/auth/register']) {
        const a = await w.server.send({
          method: 'POST',
          path,
          headers: jsonType,
          body: JSON.stringify({
            account: `${ch}nameprobe`,
            phone: '+8613800138001',
            inviteCode: 'WELCOME',
            password: 'correct horse 1',
            passwordConfirm: 'correct horse 1',
            tradePassword: '123456',
            tradePasswordConfirm: '123456',
            acceptTerms: DEFAULT_TERMS_VERSION,
          }),
        });
        const e = (a.json as { error?: { code?: string; field?: string } } | undefined)?.error;
        if (a.status !== 400 || e?.code !== 'VALIDATION_FAILED' || e.field !== 'account')
          wrong.push(`account with U+${ch.codePointAt(0)!.toString(16)}: ${a.status} ${a.text}`);
      }
    expect(wrong).toEqual([]);
    expect(await rows()).toBe(before);
    const { rows: accounts } = await w.t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM users WHERE account ILIKE '%nameprobe%'",
    );
    expect(accounts[0]!.n).toBe(0);
    // A remark and a bank's name are no person's name: an emoji family (joined with ZWJ), a
    // Persian word with its non-joiner and a Hebrew remark with its mark are taken as written.
    const remark = '👨\u200d👩\u200d👧 می\u200cخواهم שלום\u200f';
    const ok = await post(
      '/api/deposits',
      formOf({ ...bankDepositFields(10_000), payerBank: 'بانک\u200cملی', remark }, ['screenshot']),
    );
    expect(ok.status, ok.text).toBe(201);
    expect((ok.json as { remark: string }).remark).toBe(remark);
  });

  it('a refused deposit writes nothing: no row, no upload, no file', async () => {
    const counts = async () =>
      (
        await w.t.db.query<{ deposits: number; uploads: number }>(
          'SELECT (SELECT count(*)::int FROM deposits) AS deposits, (SELECT count(*)::int FROM uploads) AS uploads',
        )
      ).rows[0]!;
    const files = () =>
      fs.existsSync(w.api.uploadsDir) ? fs.readdirSync(w.api.uploadsDir).length : 0;
    const before = { ...(await counts()), files: files() };
    const fields = bankDepositFields(10_000);
    const form = (over: Record<string, string>, shot = images.png) =>
      multipart([
        ...Object.entries({ ...fields, ...over }).map(([name, value]) => ({ name, value })),
        { name: 'screenshot', file: shot },
      ]);
    const post = (f: { body: Buffer; type: string }, headers: Record<string, string> = {}) =>
      w.server.send({
        method: 'POST',
        path: '/api/deposits',
        headers: { ...w.auth.user, 'content-type': f.type, ...headers },
        body: f.body,
      });
    for (const [what, over] of [
      ['payerName', { payerName: 'Pay\u0000er' }],
      ['payerBank', { payerBank: 'Bank\u202e' }],
      ['remark', { remark: 'hi\u001b[2J' }],
    ] as const) {
      const a = await post(form(over));
      expect(a.status, what).toBe(400);
      expect(a.json).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: what } });
    }
    const encoded = await post(form({}), { 'content-encoding': 'gzip' });
    expect(encoded.json).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    const truncated = form({});
    const cut = await post({ ...truncated, body: truncated.body.subarray(0, 300) });
    expect(cut.json).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'body' } });
    const huge = await post(form({}, Buffer.concat([images.png, Buffer.alloc(6 * 1024 * 1024)])));
    expect(huge.json).toMatchObject({ error: { code: 'UPLOAD_TOO_LARGE' } });
    expect({ ...(await counts()), files: files() }).toEqual(before);
    // The same form with a plain remark is taken: the refusals above were about their input.
    const ok = await post(form({ remark: 'first line\nsecond line' }));
    expect(ok.status).toBe(201);
    expect(await counts()).toEqual({
      deposits: before.deposits + 1,
      uploads: before.uploads + 1,
    });
  });
});
