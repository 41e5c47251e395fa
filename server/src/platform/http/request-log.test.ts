import os from 'node:os';
import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, OPERATOR_TOKEN, type TestApi } from '@tests/support/api';
import { openTestDb, type TestDb } from '@tests/support/db';
import { createLogger } from '@infra/logger';
import { errorHandler } from './error-handler';
import { requestIdOf, requestLog } from './request-log';

interface Line {
  level: number;
  msg: string;
  pid: number;
  hostname: string;
  role?: string;
  requestId?: string;
  ip?: string;
  ms?: number;
  req?: { method: string; url: string };
  res?: { statusCode: number };
}

/** A logger as the processes make it (createLogger), writing its JSON lines into an array. */
function capturedLogger(role: string) {
  const lines: Line[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) {
        raw.push(text);
        lines.push(JSON.parse(text) as Line);
      }
      done();
    },
  });
  return { log: createLogger('info', role, stream), lines, raw };
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The access-log line of one request; the line is written when the response finishes. */
async function accessLine(lines: Line[], requestId: string): Promise<Line> {
  for (let i = 0; i < 50; i++) {
    const line = lines.find((l) => l.requestId === requestId && l.res);
    if (line) return line;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`no access-log line for ${requestId}`);
}

describe('request ids and the access log on the api app', () => {
  let tdb: TestDb;
  let api: TestApi;
  const captured = capturedLogger('api');

  beforeAll(async () => {
    tdb = await openTestDb('pglite');
    api = await buildTestApi(tdb.db, { log: captured.log });
  });
  afterAll(async () => {
    await api.close();
    await tdb.drop();
  });

  it('answers every response with a generated X-Request-Id, each on its access-log line at info', async () => {
    const answers = [
      await api.http.get('/api/market/products'),
      await api.http.get('/api/app-info'),
      await api.http.get('/api/no-such-endpoint'),
      await api.http.get('/api/me'),
      await api.http.post('/api/auth/login').send({ account: '' }),
      await api.http.get('/api/ops/ledger/check').set('authorization', `Bearer ${OPERATOR_TOKEN}`),
      await api.http.get('/not-a-client-file.js'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 404, 401, 400, 200, 404]);
    const ids = answers.map((a) => a.headers['x-request-id'] as string);
    for (const id of ids) expect(id).toMatch(uuid);
    expect(new Set(ids).size).toBe(ids.length);

    const paths = [
      '/api/market/products',
      '/api/app-info',
      '/api/no-such-endpoint',
      '/api/me',
      '/api/auth/login',
      '/api/ops/ledger/check',
      '/not-a-client-file.js',
    ];
    for (const [i, id] of ids.entries()) {
      const line = await accessLine(captured.lines, id);
      expect(line.level).toBe(30); // info
      expect(line.pid).toBe(process.pid);
      expect(line.hostname).toBe(os.hostname());
      expect(line.role).toBe('api');
      expect(line.res!.statusCode).toBe(answers[i]!.status);
      expect(line.req!.url).toBe(paths[i]);
      expect(line.msg).toBe(`${line.req!.method} ${paths[i]} ${answers[i]!.status}`);
      expect(line.ms).toBeGreaterThanOrEqual(0);
      expect(line.ip).toBeTruthy();
    }
  });

  it("puts the same id in an error body, and honours the client's own id", async () => {
    const generated = await api.http.get('/api/orders/abc').set('authorization', 'Bearer nobody');
    expect(generated.status).toBe(401);
    expect(generated.body.error.code).toBe('UNAUTHENTICATED');
    expect(generated.body.error.requestId).toBe(generated.headers['x-request-id']);

    const own = 'trace-7f3a:42/b=1+x@edge.example';
    const res = await api.http.get('/api/market/products/NOPE').set('X-Request-Id', own);
    expect(res.status).toBe(404);
    expect(res.headers['x-request-id']).toBe(own);
    expect(res.body).toEqual({
      error: { code: 'NOT_FOUND', message: expect.any(String), requestId: own },
    });
    expect((await accessLine(captured.lines, own)).res!.statusCode).toBe(404);

    const ok = await api.http.get('/api/app-info').set('X-Request-Id', 'abc');
    expect(ok.headers['x-request-id']).toBe('abc');
    expect(ok.body.error).toBeUndefined();
  });

  it('replaces an id that is too long or holds anything but the safe characters', async () => {
    for (const bad of ['x'.repeat(129), 'two words', 'quote"d', 'semi;colon', '<script>', '']) {
      const res = await api.http.get('/api/no-such-endpoint').set('X-Request-Id', bad);
      const id = res.headers['x-request-id'] as string;
      expect(id).toMatch(uuid);
      expect(res.body.error.requestId).toBe(id);
      expect(captured.raw.some((l) => bad.length > 3 && l.includes(bad))).toBe(false);
    }
    expect(requestIdOf(['a', 'b'])).toMatch(uuid);
    expect(requestIdOf('x'.repeat(128))).toBe('x'.repeat(128));
  });

  it('never logs a header or a body: tokens and passwords stay out of the log', async () => {
    const secretToken = 'secret-session-token-0123456789abcdef';
    const password = 'a password nobody may log';
    const res = await api.http
      .post('/api/auth/login')
      .set('authorization', `Bearer ${secretToken}`)
      .set('cookie', `sid=${secretToken}`)
      .send({ account: 'someone', password });
    await accessLine(captured.lines, res.headers['x-request-id'] as string);
    const text = captured.raw.join('\n');
    expect(text).not.toContain(secretToken);
    expect(text).not.toContain(password);
    expect(text).not.toContain(OPERATOR_TOKEN);
  });

  it('keeps successful probes out of the info log, but answers them with an id too', async () => {
    const res = await api.http.get('/healthz');
    expect(res.status).toBe(200);
    const id = res.headers['x-request-id'] as string;
    expect(id).toMatch(uuid);
    await api.http.get('/api/app-info'); // a later line: the probe's would be written by now
    expect(captured.lines.some((l) => l.requestId === id)).toBe(false);
  });
});

describe('request ids on a fault', () => {
  it('answers 500 INTERNAL with the id, and logs the fault and the access line at error with it', async () => {
    const { log, lines } = capturedLogger('api');
    const app = express();
    app.use(requestLog(log));
    app.get('/boom', () => {
      throw new Error('the database fell over');
    });
    app.use(errorHandler(log));
    const res = await request(app).get('/boom').set('X-Request-Id', 'fault-1');
    expect(res.status).toBe(500);
    expect(res.headers['x-request-id']).toBe('fault-1');
    expect(res.body).toEqual({
      error: { code: 'INTERNAL', message: 'Something went wrong', requestId: 'fault-1' },
    });
    const access = await accessLine(lines, 'fault-1');
    expect(access.level).toBe(50); // error
    const fault = lines.find((l) => l.msg === 'unhandled error');
    expect(fault?.requestId).toBe('fault-1');
  });
});
