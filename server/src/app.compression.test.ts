import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@tests/support/api';
import { openTestDb, type TestDb } from '@tests/support/db';

describe('compressed answers', () => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb('pglite');
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });
  const gzip = { 'Accept-Encoding': 'gzip' };

  it('gzips a large JSON answer to a GET for a client that takes gzip, and only then', async () => {
    const zipped = await api.http.get('/api/openapi.json').set(gzip).expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    expect(zipped.body).toMatchObject({ openapi: expect.any(String) });
    const plain = await api.http
      .get('/api/openapi.json')
      .set('Accept-Encoding', 'identity')
      .expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('sends a small answer as it is', async () => {
    const small = await api.http.get('/api/app-info').set(gzip).expect(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
