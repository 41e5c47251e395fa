import zlib from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasForbiddenCharacters } from '@shared/text';
import { dbDrivers } from '@tests/support/db';
import {
  deeplyNested,
  fieldsOf,
  oddNumbers,
  oddTexts,
  rawNumbers,
  wrongValues,
  type Caller,
  type Operation,
} from '@tests/support/fuzz';
import {
  FUZZ_SEED,
  jsonType,
  openFuzzWorld,
  problemOf,
  type FuzzWorld,
} from '@tests/support/fuzz-world';
import { reproOf, type RawAnswer } from '@tests/support/raw-http';
import { expectLedgerOk } from '@tests/support/wallet';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';

/**
 * Bad input never becomes a 5xx. Every endpoint the server documents (read from its own
 * GET /api/openapi.json, so endpoints added later are covered without touching this file) gets
 * odd transports, bodies and field values, as anonymous, as a user and as the operator; every
 * answer must be below 500, and every refusal under /api the standard error body with a known
 * code. Each family reports all its failures at once, each with the request that caused it; the
 * random part (fast-check) runs with a fixed seed, printed on failure. The security review's
 * three 500s and NUL come first, by name. input-fuzz-params.test.ts sweeps path and query
 * parameters, methods and forms; input-refusals.test.ts names the answers to limits, ids and
 * free text.
 */
describe.each(dbDrivers())('bad input never becomes a 5xx on %s', (kind) => {
  let w: FuzzWorld;
  beforeAll(async () => {
    w = await openFuzzWorld(kind);
  });
  afterAll(async () => {
    await w?.close();
  });

  describe('the three 500s of the security review, and NUL, by name', () => {
    const registration = {
      account: 'nul_probe',
      phone: '+8613800138000',
      inviteCode: 'WELCOME',
      password: 'correct horse 1',
      passwordConfirm: 'correct horse 1',
      tradePassword: '123456',
      tradePasswordConfirm: '123456',
      acceptTerms: DEFAULT_TERMS_VERSION,
    };
    const accounts = async () =>
      (
        await w.t.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM users WHERE lower(account) = 'nul_probe'",
        )
      ).rows[0]!.n;
    const register = (headers: Record<string, string>, body: Buffer | string) =>
      w.server.send({ method: 'POST', path: '/api/auth/register', headers, body });
    const text = JSON.stringify(registration);

    it('content-type: application/json; charset=latin1 → 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      const a = await register({ 'content-type': 'application/json; charset=latin1' }, text);
      expect(a.status).toBe(415);
      expect(a.json).toEqual({
        error: {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: expect.any(String),
          field: 'Content-Type',
          requestId: expect.any(String),
        },
      });
      expect(await accounts()).toBe(0);
    });

    it('content-encoding: bogus → 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      const a = await register({ ...jsonType, 'content-encoding': 'bogus' }, text);
      expect(a.status).toBe(415);
      expect(a.json).toMatchObject({
        error: { code: 'UNSUPPORTED_MEDIA_TYPE', field: 'Content-Encoding' },
      });
      expect(await accounts()).toBe(0);
    });

    it('content-encoding: gzip with data that is not gzip → 400 VALIDATION_FAILED', async () => {
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const a = await register({ ...jsonType, 'content-encoding': encoding }, text);
        expect(a.status, encoding).toBe(400);
        expect(a.json, encoding).toMatchObject({
          error: { code: 'VALIDATION_FAILED', field: 'body' },
        });
      }
      expect(await accounts()).toBe(0);
    });

    it('a NUL (or another control or bidi character) in a text field → 400 naming it', async () => {
      for (const [field, value] of [
        ['inviteCode', 'WELCOME\u0000'],
        ['inviteCode', 'WEL\u202eCOME'],
        ['account', 'nul\u0000probe'],
        ['phone', '+86138\u00000138000'],
      ] as const) {
        const a = await register(jsonType, JSON.stringify({ ...registration, [field]: value }));
        expect(a.status, `${field} ${JSON.stringify(value)}`).toBe(400);
        expect(a.json).toMatchObject({ error: { code: 'VALIDATION_FAILED', field } });
      }
      const login = await w.server.send({
        method: 'POST',
        path: '/api/auth/login',
        headers: jsonType,
        body: JSON.stringify({ account: 'nul\u0000probe', password: 'whatever1' }),
      });
      expect(login.json).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'account' } });
      expect(await accounts()).toBe(0);
    });

    it('the same registration, sent well (gzip, deflate, br or plain), is taken once', async () => {
      for (const [encoding, bytes] of [
        ['gzip', zlib.gzipSync(text)],
        ['deflate', zlib.deflateSync(text)],
        ['br', zlib.brotliCompressSync(text)],
      ] as const) {
        const check = await w.server.send({
          method: 'POST',
          path: '/api/auth/register/check',
          headers: { ...jsonType, 'content-encoding': encoding },
          body: bytes,
        });
        expect(check.status, encoding).toBe(200);
      }
      expect((await register(jsonType, text)).status).toBe(201);
      expect(await accounts()).toBe(1);
    });
  });

  describe('every endpoint', () => {
    it('sees the documented operations', () => {
      expect(w.ops.length).toBeGreaterThan(50);
      expect(w.ops.filter((o) => o.json).length).toBeGreaterThan(15);
      expect(w.ops.filter((o) => o.form).length).toBe(2);
    });

    it('as anyone, a user and the operator: odd content types, charsets and encodings', async () => {
      const transports = (
        body: string,
      ): { headers: Record<string, string>; body: Buffer | string }[] => [
        { headers: { 'content-type': 'application/json; charset=latin1' }, body },
        { headers: { ...jsonType, 'content-encoding': 'bogus' }, body },
        { headers: { ...jsonType, 'content-encoding': 'gzip' }, body },
        { headers: { 'content-type': 'application/json; charset=utf-16' }, body },
        { headers: { 'content-type': 'application/json; charset=x-bogus' }, body },
        { headers: { ...jsonType, 'content-encoding': 'gzip, gzip' }, body },
        { headers: { ...jsonType, 'content-encoding': 'deflate' }, body },
        { headers: { ...jsonType, 'content-encoding': 'br' }, body },
        { headers: { ...jsonType, 'content-encoding': 'gzip' }, body: zlib.gzipSync(body) },
        {
          headers: { ...jsonType, 'content-encoding': 'deflate' },
          body: zlib.deflateRawSync(body),
        },
        { headers: { 'content-type': 'text/plain' }, body },
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b[c]=2' },
        { headers: { 'content-type': 'multipart/form-data' }, body },
        { headers: { 'content-type': ';;;' }, body },
        { headers: { 'content-type': 'application/json; charset' }, body },
        { headers: jsonType, body: '{"a":' },
        { headers: jsonType, body: `\ufeff${body}` },
        { headers: jsonType, body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
      ];
      // The parser runs before authentication and routing, so the caller who gets through gets
      // every case (the first six on a GET, which takes no body), the two others the first three
      // (the review's findings).
      const casesFor = (op: Operation, caller: Caller) =>
        caller !== op.caller ? 3 : op.method === 'GET' ? 6 : undefined;
      const { sent, problems } = await w.sweep(
        w.ops.flatMap((op) =>
          (['anonymous', 'user', 'operator'] as const).flatMap((caller) =>
            transports(JSON.stringify(w.sampleBody(op)))
              .slice(0, casesFor(op, caller))
              .map((tr) => ({
                method: op.method,
                path: w.urlOf(op),
                headers: { ...w.headersFor(op, caller), ...tr.headers },
                body: tr.body,
              })),
          ),
        ),
      );
      expect(sent).toBeGreaterThan(w.ops.length * 12);
      expect(problems).toEqual([]);
    });

    it('bodies of the wrong shape: arrays, scalars, deep nesting, huge, prototype keys', async () => {
      const shapes = (op: Operation) => {
        const sample = JSON.stringify(w.sampleBody(op));
        return [
          '[]',
          `[${sample}]`,
          '"text"',
          'null',
          '0',
          'true',
          '{}',
          deeplyNested(10_000, 'array'),
          deeplyNested(5_000, 'object'),
          `[${'0,'.repeat(20_000)}0]`,
          JSON.stringify(Object.fromEntries(Array.from({ length: 4_000 }, (_, i) => [`k${i}`, i]))),
          `{"__proto__":{"admin":true},${sample.slice(1)}`,
          `{"constructor":{"prototype":{"admin":true}},${sample.slice(1)}`,
          `${sample.slice(0, -1)},${sample.slice(1)}`,
          `${sample} trailing`,
          JSON.stringify({ ...(w.sampleBody(op) as object), extra: 'x'.repeat(70_000) }),
        ];
      };
      const { problems } = await w.sweep(
        w.ops
          .filter((op) => op.method !== 'GET')
          .flatMap((op) =>
            shapes(op).map((body) => ({
              method: op.method,
              path: w.urlOf(op),
              headers: { ...jsonType, ...w.headersFor(op, op.caller) },
              body,
            })),
          ),
      );
      expect(problems).toEqual([]);
    });

    it('every field: control, bidi and odd characters, wrong types, raw numbers', async () => {
      const secret = /password/i;
      const cases = w.ops
        .filter((op) => op.json)
        .flatMap((op) => {
          const sample = w.sampleBody(op) as Record<string, unknown>;
          const send = (body: string, also?: (a: RawAnswer) => string | null) => ({
            method: op.method,
            path: w.urlOf(op),
            headers: { ...jsonType, ...w.headersFor(op, op.caller) },
            body,
            also,
          });
          const texts = (max = 100) => [...oddTexts, 'x'.repeat(max + 1), 'x'.repeat(70_000)];
          return fieldsOf(op.json!).flatMap(({ name, schema }) => [
            ...(schema.type === 'string'
              ? texts(schema.maxLength).map((value) =>
                  send(JSON.stringify({ ...sample, [name]: value }), (a) =>
                    // Accepted only where line breaks are (bodies, remarks) or for a secret.
                    a.status < 300 &&
                    hasForbiddenCharacters(value, { multiline: true }) &&
                    !secret.test(name)
                      ? `took ${JSON.stringify(value)} in ${name}`
                      : null,
                  ),
                )
              : [
                  ...oddNumbers.map((value) => send(JSON.stringify({ ...sample, [name]: value }))),
                  ...rawNumbers.map((n) =>
                    send(JSON.stringify({ ...sample, [name]: '@@raw@@' }).replace('"@@raw@@"', n)),
                  ),
                ]),
            ...wrongValues.map((value) => send(JSON.stringify({ ...sample, [name]: value }))),
            send(
              JSON.stringify(
                Object.fromEntries(Object.entries(sample).filter(([k]) => k !== name)),
              ),
            ),
          ]);
        });
      const { sent, problems } = await w.sweep(cases);
      expect(sent).toBeGreaterThan(1_000);
      expect(problems).toEqual([]);
    });

    it(`random bodies (fast-check, seed ${FUZZ_SEED})`, async () => {
      const value = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.constantFrom(...oddTexts),
        fc.integer(),
        fc.double(),
        fc.constantFrom(...wrongValues),
        fc.jsonValue({ maxDepth: 3 }),
      );
      for (const op of w.ops.filter((o) => o.json)) {
        const sample = w.sampleBody(op) as Record<string, unknown>;
        const keys = Object.keys(sample);
        // Some fields replaced, the others left as sampled.
        const body = fc.record(Object.fromEntries(keys.map((k) => [k, value])), {
          requiredKeys: [],
        });
        await fc.assert(
          fc.asyncProperty(body, async (over) => {
            const req = {
              method: op.method,
              path: w.urlOf(op),
              headers: { ...jsonType, ...w.headersFor(op, op.caller) },
              body: JSON.stringify({ ...sample, ...over }),
            };
            const a = await w.server.send(req);
            const problem = problemOf(req, a);
            if (problem) throw new Error(`${op.id}: ${problem}\n    ${reproOf(req)}`);
          }),
          { seed: FUZZ_SEED, numRuns: 15, endOnFailure: true },
        );
      }
    });

    it('left no control or bidi character in any text the database holds; the ledger balances', async () => {
      expect(await w.storedOddTexts()).toEqual([]);
      await expectLedgerOk(w.api);
    });
  });
});
