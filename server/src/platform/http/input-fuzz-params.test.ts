import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers } from '@tests/support/db';
import { oddParams, oddTexts, sampleOf, type Caller } from '@tests/support/fuzz';
import { FUZZ_SEED, jsonType, openFuzzWorld, type FuzzWorld } from '@tests/support/fuzz-world';
import { multipart } from '@tests/support/raw-http';
import { expectLedgerOk, images } from '@tests/support/wallet';

/**
 * The input fuzz's second half (input-fuzz.test.ts has the first and says what it is for): every
 * path and query parameter of every documented endpoint, every method a path does not have, and
 * multipart bodies for the upload endpoints. No answer may be a 5xx.
 */
describe.each(dbDrivers())('odd parameters and forms never make a 5xx on %s', (kind) => {
  let w: FuzzWorld;
  beforeAll(async () => {
    w = await openFuzzWorld(kind);
  });
  afterAll(async () => {
    await w?.close();
  });

  describe('every endpoint', () => {
    it('every path and query parameter: odd, broken, repeated and nested values', async () => {
      const ids = [
        w.theirs.account,
        w.theirs.deposit,
        w.theirs.upload,
        w.theirs.message,
        '999999999',
      ];
      // A query parameter many lists share (limit, cursor, lang) gets every value the first time
      // and the sharpest few after.
      const seen = new Set<string>();
      const valuesFor = (name: string, schema: unknown) => {
        const key = `${name} ${JSON.stringify(schema)}`;
        const first = !seen.has(key);
        seen.add(key);
        return first ? oddParams : ['%00', '%E0%A4%A', '1e999', '-1'];
      };
      const cases = w.ops.flatMap((op) => {
        const base = w.baseQuery(op);
        const query = (over: Record<string, string>) =>
          Object.entries({ ...base, ...over })
            .map(([k, v]) => `${k}=${v}`)
            .join('&');
        const send = (path: string, caller: Caller = op.caller) => ({
          method: op.method,
          path,
          headers: { ...jsonType, ...w.headersFor(op, caller) },
          body: op.method === 'GET' ? undefined : JSON.stringify(w.sampleBody(op)),
        });
        return [
          ...op.pathParams.flatMap((name) => [
            ...[...oddParams, ...ids].map((v) => send(w.urlOf(op, { [name]: v }, query({})))),
            // Authentication comes first elsewhere: a few for anyone are enough.
            ...(op.caller === 'anonymous'
              ? []
              : ['%00', '%E0%A4%A', '-1'].map((v) =>
                  send(w.urlOf(op, { [name]: v }), 'anonymous'),
                )),
          ]),
          ...op.query.flatMap(({ name, schema }) => [
            ...valuesFor(name, schema).map((v) => send(w.urlOf(op, {}, query({ [name]: v })))),
            send(w.urlOf(op, {}, `${query({})}&${name}=1&${name}=2`)),
            send(w.urlOf(op, {}, `${query({})}&${name}[]=1`)),
            send(w.urlOf(op, {}, `${query({})}&${name}[a]=1`)),
            send(w.urlOf(op, {}, `${query({})}&${name}=`)),
          ]),
          send(w.urlOf(op, {}, `${query({})}&zz%00=%00&__proto__[x]=1`)),
        ];
      });
      const { problems } = await w.sweep(cases);
      expect(problems).toEqual([]);
    });

    it('every path with the methods it does not have', async () => {
      const paths = [...new Set(w.ops.map((o) => o.path))];
      const { problems } = await w.sweep(
        paths.flatMap((path) =>
          ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']
            .filter((m) => !w.ops.some((o) => o.path === path && o.method === m))
            .map((method) => ({
              method,
              path: w.urlOf({ ...w.ops.find((o) => o.path === path)! }),
              headers: { ...jsonType, ...w.auth.user },
              body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
            })),
        ),
      );
      expect(problems).toEqual([]);
    });

    it('upload endpoints: multipart forms with wrong fields, files and framing', async () => {
      const forms = w.ops.filter((o) => o.form);
      const cases = forms.flatMap((op) => {
        const fields = Object.entries(
          sampleOf(op.form!.fields, FUZZ_SEED) as Record<string, unknown>,
        ).map(([name, v]) => ({ name, value: String(v) }));
        const files = op.form!.files.map((name) => ({ name, file: images.png }));
        const send = (f: { body: Buffer; type: string }, headers: Record<string, string> = {}) => ({
          method: op.method,
          path: w.urlOf(op),
          headers: { ...w.headersFor(op, op.caller), 'content-type': f.type, ...headers },
          body: f.body,
        });
        const good = multipart([...fields, ...files]);
        return [
          send(multipart([...fields, { name: 'avatar', file: images.png }])),
          send(multipart([...fields, ...files, ...files])),
          send(multipart([...fields, ...files.map((f) => ({ ...f, file: images.svg }))])),
          send(multipart([...fields, ...files.map((f) => ({ ...f, file: Buffer.alloc(0) }))])),
          send(multipart(Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, value: 'x' })))),
          send(multipart([...fields.map((f) => ({ ...f, value: 'x'.repeat(3_000) })), ...files])),
          send(multipart([{ name: 'n'.repeat(200), value: 'x' }, ...files])),
          send(multipart([{ name: '', value: 'x' }, ...files])),
          send(multipart([{ name: 'a[b][c][d][e]', value: 'x' }, ...files])),
          ...fields.flatMap((f) =>
            oddTexts.map((value) =>
              send(
                multipart([
                  ...fields.map((g) => (g.name === f.name ? { ...g, value } : g)),
                  ...files,
                ]),
              ),
            ),
          ),
          send(good, { 'content-encoding': 'gzip' }),
          send(good, { 'content-type': 'multipart/form-data' }),
          send(good, { 'content-type': 'multipart/form-data; boundary=other' }),
          send(good, { 'content-type': `${good.type}; charset=latin1` }),
          send({ ...good, body: good.body.subarray(0, good.body.length - 20) }),
          send({ ...good, body: Buffer.from('--x\r\nnot a header\r\n\r\n') }),
          send({
            body: Buffer.from(JSON.stringify(sampleOf(op.form!.fields, FUZZ_SEED))),
            type: 'application/json',
          }),
          ...(['anonymous', 'operator'] as const).map((caller) => ({
            ...send(good),
            headers: { ...w.auth[caller], 'content-type': good.type },
          })),
        ];
      });
      const { problems } = await w.sweep(cases);
      expect(problems).toEqual([]);
    });

    it('left no control or bidi character in any text the database holds; the ledger balances', async () => {
      expect(await w.storedOddTexts()).toEqual([]);
      await expectLedgerOk(w.api);
    });
  });
});
