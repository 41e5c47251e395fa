import { errorCodes } from '@shared/errors';
import { hasForbiddenCharacters } from '@shared/text';
import { buildTestApi, registerUser, type TestApi } from './api';
import { openTestDb, type DriverKind, type TestDb } from './db';
import { operationsOf, sampleOf, type Caller, type OpenApiDoc, type Operation } from './fuzz';
import { rawServer, reproOf, type RawAnswer, type RawRequest } from './raw-http';
import { bankAccountBody, bankDepositFields, images, opsAuth, verifiedUser } from './wallet';

export const FUZZ_SEED = 20_260_517;
export const jsonType = { 'content-type': 'application/json' };

/** A request of a sweep, with an extra expectation beyond "no 5xx, the standard error body". */
export type Probe = RawRequest & { also?: (a: RawAnswer) => string | null };

/** What is wrong with an answer, or null: a 5xx, or a refusal without the standard body. */
export function problemOf(req: RawRequest, a: RawAnswer): string | null {
  if (a.status >= 500) return `${a.status} ${a.text.slice(0, 200)}`;
  // Only /api answers JSON; HEAD answers carry no body at all.
  if (a.status < 400 || !req.path.startsWith('/api/') || req.method === 'HEAD') return null;
  const body = a.json as { error?: { code?: unknown; message?: unknown; field?: unknown } };
  const e = body?.error;
  const ok =
    e &&
    Object.keys(body).length === 1 &&
    errorCodes.includes(e.code as never) &&
    typeof e.message === 'string' &&
    (e.field === undefined || typeof e.field === 'string');
  return ok ? null : `${a.status} without the standard error body: ${a.text.slice(0, 200)}`;
}

/**
 * The api on a fresh database of `kind` (TEST_CLOCK on, so its endpoints are there too), served
 * on a loopback port, with the operations of its own GET /api/openapi.json; a signed-in user, the
 * operator, and another user's withdrawal account, deposit, upload and message.
 */
export async function openFuzzWorld(kind: DriverKind) {
  const t: TestDb = await openTestDb(kind);
  // The throttles (confirmation passwords, registrations, logins, deposits, market reads, orders)
  // refuse after a few tries; a fuzz sends hundreds, and what it tests is the answer to bad input.
  const wide = { points: 1_000_000, durationSec: 900 };
  const api: TestApi = await buildTestApi(t.db, {
    env: { TEST_CLOCK: '1', MARKET_READ_RATE: 'off', ORDER_RATE: 'off' },
    confirm: wide,
    limits: {
      loginAddress: wide,
      loginPair: wide,
      loginPairDaily: wide,
      loginAccount: wide,
      registerCheck: wide,
      register: wide,
    },
    deposits: { pendingMax: 1_000_000, rate: wide },
  });
  const server = await rawServer(api.app);
  const doc = (await server.send({ method: 'GET', path: '/api/openapi.json' })).json;
  const ops = operationsOf(doc as OpenApiDoc);
  const auth: Record<Caller, Record<string, string>> = {
    anonymous: {},
    user: (await registerUser(api, 'fuzz')).auth,
    operator: opsAuth,
  };
  // A session only `POST /api/auth/logout` gets, so a sweep does not end the user's own.
  const leaving = (await registerUser(api, 'leave')).auth;
  // Verified: a bank account is bound in the verified identity's name only.
  const other = await verifiedUser(api, 'other');
  const account = await api.http
    .post('/api/withdrawal-accounts')
    .set(other.auth)
    .send(bankAccountBody)
    .expect(201);
  const deposit = await api.http
    .post('/api/deposits')
    .set(other.auth)
    .field(bankDepositFields(10_000))
    .attach('screenshot', images.png, 'shot.png')
    .expect(201);
  const message = await api.http
    .post('/api/ops/messages')
    .set(opsAuth)
    .send({ userId: other.user.id, title: 'Yours', body: 'Only yours' })
    .expect(201);
  /** Someone else's things: the signed-in user must get 404 for each. */
  const theirs = {
    account: account.body.id as string,
    deposit: deposit.body.id as string,
    upload: deposit.body.screenshotId as string,
    message: message.body.id as string,
  };
  const products = await api.http.get('/api/market/products').expect(200);
  const product = (products.body as { id: string }[])[0]!.id;

  const headersFor = (op: Operation, caller: Caller) =>
    op.id === 'logout' && caller === 'user' ? leaving : auth[caller];
  const defaults: Record<string, string> = { id: '1', slug: 'about' };
  /** The operation's URL with `params` (already encoded) and a query string. */
  const urlOf = (op: Operation, params: Record<string, string> = {}, query = '') => {
    const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
      name in params ? params[name]! : (defaults[name] ?? '1'),
    );
    return query ? `${path}?${query}` : path;
  };
  /** The required query parameters, sampled (a known product where one is asked for). */
  const baseQuery = (op: Operation): Record<string, string> =>
    Object.fromEntries(
      op.query
        .filter((q) => q.required)
        .map((q) => [
          q.name,
          q.name === 'product' ? product : String(sampleOf(q.schema, FUZZ_SEED)),
        ]),
    );
  const sampleBody = (op: Operation) => (op.json ? sampleOf(op.json, FUZZ_SEED) : {});

  /** Sends every request in order (so a failure reproduces) and lists what went wrong, each
   * with its request. */
  const sweep = async (requests: Iterable<Probe>) => {
    const problems: string[] = [];
    let sent = 0;
    for (const req of requests) {
      const a = await server.send(req);
      sent++;
      const problem = problemOf(req, a) ?? req.also?.(a) ?? null;
      if (problem) problems.push(`${problem}\n    ${reproOf(req)}`);
    }
    return { sent, problems };
  };

  /**
   * Every text the database holds (text, varchar and JSON columns of every table) that has a
   * character free text may not: what a refusal should have kept out. Line breaks are allowed,
   * since some fields take them.
   */
  const storedOddTexts = async () => {
    const { rows: columns } = await t.db.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = current_schema()
          AND data_type IN ('text', 'character varying', 'jsonb', 'json')`,
    );
    if (columns.length < 10) throw new Error(`only ${columns.length} text columns found`);
    const found: string[] = [];
    const visit = (where: string, v: unknown): void => {
      if (typeof v === 'string') {
        if (hasForbiddenCharacters(v, { multiline: true }))
          found.push(`${where}: ${JSON.stringify(v)}`);
      } else if (v && typeof v === 'object') Object.values(v).forEach((x) => visit(where, x));
    };
    for (const { table_name: table, column_name: column } of columns) {
      const { rows } = await t.db.query<{ v: unknown }>(
        `SELECT "${column}" AS v FROM "${table}" WHERE "${column}" IS NOT NULL`,
      );
      rows.forEach((r) => visit(`${table}.${column}`, r.v));
    }
    return found;
  };

  return {
    t,
    api,
    server,
    ops,
    auth,
    theirs,
    product,
    headersFor,
    urlOf,
    baseQuery,
    sampleBody,
    sweep,
    storedOddTexts,
    async close() {
      await server.close();
      await api.close();
      await t.drop();
    },
  };
}

export type FuzzWorld = Awaited<ReturnType<typeof openFuzzWorld>>;
