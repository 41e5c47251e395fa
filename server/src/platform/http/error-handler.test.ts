import { Writable } from 'node:stream';
import express from 'express';
import multer from 'multer';
import pino from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { AppError, rateLimited, unavailable } from './errors';
import { errorHandler } from './error-handler';
import { FormError } from './refusals';

/** An app whose one route fails with `err`, and the error lines its handler logged. */
function failingWith(err: unknown) {
  const logged: { msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logged.push(JSON.parse(chunk.toString()) as { msg: string });
      done();
    },
  });
  const app = express()
    .get('/x', () => {
      throw err;
    })
    .use(errorHandler(pino({ level: 'error' }, sink)));
  return { http: request(app), logged };
}

/** An error as body-parser and raw-body raise them (http-errors: status, expose, type). */
const parserError = (type: string, status: number, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(type), {
    type,
    status,
    statusCode: status,
    expose: status < 500,
    ...extra,
  });

describe('the error handler', () => {
  it.each([
    ['entity.parse.failed', 400, 400, 'VALIDATION_FAILED', 'body'],
    ['entity.too.large', 413, 413, 'PAYLOAD_TOO_LARGE', 'body'],
    ['parameters.too.many', 413, 413, 'PAYLOAD_TOO_LARGE', 'body'],
    ['querystring.parse.rangeError', 400, 400, 'VALIDATION_FAILED', 'body'],
    ['charset.unsupported', 415, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type'],
    ['encoding.unsupported', 415, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Encoding'],
    ['request.size.invalid', 400, 400, 'VALIDATION_FAILED', 'body'],
    ['request.aborted', 400, 400, 'VALIDATION_FAILED', 'body'],
    ['stream.not.readable', 500, 400, 'VALIDATION_FAILED', 'body'],
    ['stream.encoding.set', 500, 400, 'VALIDATION_FAILED', 'body'],
  ])(
    'answers body-parser’s %s (%i) with %i %s naming %s',
    async (type, raised, status, code, field) => {
      const { http, logged } = failingWith(parserError(type, raised, { limit: 65_536 }));
      const res = await http.get('/x').expect(status);
      expect(res.body).toEqual({ error: { code, message: expect.any(String), field } });
      // Only the one no request can cause is a fault worth a log line.
      expect(logged.length).toBe(type === 'stream.encoding.set' ? 1 : 0);
    },
  );

  it('names the limit of a body that is too large', async () => {
    const { http } = failingWith(parserError('entity.too.large', 413, { limit: 65_536 }));
    expect((await http.get('/x')).body.error.message).toBe('Body is larger than 64 kB');
  });

  it('answers a body that does not inflate (zlib, wrapped by body-parser) with 400', async () => {
    const zlibError = Object.assign(new Error('incorrect header check'), {
      code: 'Z_DATA_ERROR',
      errno: -3,
      status: 400,
      statusCode: 400,
      expose: true,
    });
    const { http, logged } = failingWith(zlibError);
    const res = await http.get('/x').expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'body' });
    expect(logged).toEqual([]);
  });

  it('answers a path with a broken %-escape (the router’s URIError) with 400', async () => {
    const uriError = Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), {
      status: 400,
      statusCode: 400,
    });
    const res = await failingWith(uriError).http.get('/x').expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'path' });
  });

  it.each([
    ['LIMIT_FILE_SIZE', 'screenshot', 413, 'UPLOAD_TOO_LARGE', 'screenshot'],
    ['LIMIT_UNEXPECTED_FILE', 'avatar', 400, 'VALIDATION_FAILED', 'avatar'],
    ['LIMIT_FIELD_VALUE', 'remark', 400, 'VALIDATION_FAILED', 'remark'],
    ['LIMIT_FILE_COUNT', undefined, 400, 'VALIDATION_FAILED', 'body'],
    ['LIMIT_FIELD_COUNT', undefined, 400, 'VALIDATION_FAILED', 'body'],
    ['LIMIT_PART_COUNT', undefined, 400, 'VALIDATION_FAILED', 'body'],
    ['LIMIT_FIELD_KEY', undefined, 400, 'VALIDATION_FAILED', 'body'],
    ['MISSING_FIELD_NAME', undefined, 400, 'VALIDATION_FAILED', 'body'],
    ['INVALID_FIELD_NAME', 'a[b', 400, 'VALIDATION_FAILED', 'a[b'],
    ['LIMIT_FIELD_NESTING', 'a[b][c]', 400, 'VALIDATION_FAILED', 'a[b][c]'],
    ['STREAM_DESTROYED', undefined, 400, 'VALIDATION_FAILED', 'body'],
  ] as const)('answers multer’s %s with %i %s', async (code, field, status, answer, named) => {
    const err = new multer.MulterError(code as multer.ErrorCode, field);
    const { http, logged } = failingWith(new FormError(err));
    const res = await http.get('/x').expect(status);
    expect(res.body.error).toMatchObject({ code: answer, field: named });
    expect(logged).toEqual([]);
  });

  it('answers a malformed form (busboy’s own errors) with 400', async () => {
    const res = await failingWith(new FormError(new Error('Unexpected end of form')))
      .http.get('/x')
      .expect(400);
    expect(res.body.error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Form data is malformed',
      field: 'body',
    });
  });

  it.each([
    [rateLimited('Too many orders', 2_400), 429, 'RATE_LIMITED', '3', 2_400],
    [rateLimited('Too many requests', 10), 429, 'RATE_LIMITED', '1', 10],
    [unavailable('Too busy', 2_000), 503, 'UNAVAILABLE', '2', 2_000],
  ])(
    'answers a refusal that passes with time with Retry-After in whole seconds and the wait (%#)',
    async (err, status, code, header, wait) => {
      const { http, logged } = failingWith(err);
      const res = await http.get('/x').expect(status);
      expect(res.headers['retry-after']).toBe(header);
      expect(res.body).toEqual({
        error: { code, message: err.message, retryAfterMs: wait },
      });
      expect(logged).toEqual([]);
    },
  );

  it('answers an AppError with its own status, code and field', async () => {
    const res = await failingWith(new AppError(409, 'INVALID_STATE', 'Already reviewed', 'id'))
      .http.get('/x')
      .expect(409);
    expect(res.body).toEqual({
      error: { code: 'INVALID_STATE', message: 'Already reviewed', field: 'id' },
    });
  });

  it.each([
    ['a plain Error', new Error('boom')],
    ['a database error', Object.assign(new Error('invalid byte sequence'), { code: '22021' })],
    ['a 5xx http-error', parserError('something.else', 503)],
    ['a thrown string', 'oops'],
  ])('answers %s with 500 INTERNAL, without detail, and logs it', async (_, err) => {
    const { http, logged } = failingWith(err);
    const res = await http.get('/x').expect(500);
    expect(res.body).toEqual({ error: { code: 'INTERNAL', message: 'Something went wrong' } });
    expect(logged.map((l) => l.msg)).toEqual(['unhandled error']);
  });
});
