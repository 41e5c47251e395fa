import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';

describe.each(dbDrivers())('favourite products on %s', (kind) => {
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

  const favourites = async (auth: Record<string, string>, app: TestApi = api) =>
    (await app.http.get('/api/me/favourites').set(auth).expect(200)).body as {
      products: string[];
    };

  it('are kept per user in the order marked, marking twice changes nothing, and unmarking removes', async () => {
    const u = await registerUser(api, 'fav');
    const other = await registerUser(api, 'fav');
    expect(await favourites(u.auth)).toEqual({ products: [] });
    await api.http.put('/api/me/favourites/XAUUSD').set(u.auth).expect(200);
    const second = await api.http.put('/api/me/favourites/BTCUSDT').set(u.auth).expect(200);
    expect(second.body).toEqual({ products: ['XAUUSD', 'BTCUSDT'] });
    // The same mark twice at once: one row, the first place kept.
    const twice = await Promise.all([
      api.http.put('/api/me/favourites/XAUUSD').set(u.auth),
      api.http.put('/api/me/favourites/XAUUSD').set(u.auth),
    ]);
    expect(twice.map((r) => r.status)).toEqual([200, 200]);
    expect(await favourites(u.auth)).toEqual({ products: ['XAUUSD', 'BTCUSDT'] });
    // Someone else's list is their own.
    expect(await favourites(other.auth)).toEqual({ products: [] });
    const removed = await api.http.delete('/api/me/favourites/XAUUSD').set(u.auth).expect(200);
    expect(removed.body).toEqual({ products: ['BTCUSDT'] });
    // Unmarking what is not marked is no error.
    await api.http.delete('/api/me/favourites/EURUSD').set(u.auth).expect(200);
    expect(await favourites(u.auth)).toEqual({ products: ['BTCUSDT'] });
  });

  it('follow the user to another session and survive a restart of the api', async () => {
    const u = await registerUser(api, 'fav');
    await api.http.put('/api/me/favourites/ETHUSDT').set(u.auth).expect(200);
    await api.http.post('/api/auth/logout').set(u.auth).expect(204);
    const login = await api.http
      .post('/api/auth/login')
      .set('X-Forwarded-For', '10.250.0.1')
      .send({ account: u.account, password: u.password })
      .expect(200);
    const again = { Authorization: `Bearer ${(login.body as { token: string }).token}` };
    expect(await favourites(again)).toEqual({ products: ['ETHUSDT'] });
    const restarted = await buildTestApi(t.db);
    try {
      expect(await favourites(again, restarted)).toEqual({ products: ['ETHUSDT'] });
    } finally {
      await restarted.close();
    }
  });

  it('refuse unknown products, bad ids and callers without a session', async () => {
    const u = await registerUser(api, 'fav');
    for (const id of ['NOPE', 'btcusdt'])
      for (const method of ['put', 'delete'] as const) {
        const res = await api.http[method](`/api/me/favourites/${id}`).set(u.auth).expect(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    const long = await api.http.put(`/api/me/favourites/${'X'.repeat(33)}`).set(u.auth);
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('VALIDATION_FAILED');
    await api.http.get('/api/me/favourites').expect(401);
    await api.http.put('/api/me/favourites/BTCUSDT').expect(401);
    await api.http.delete('/api/me/favourites/BTCUSDT').expect(401);
    expect(await favourites(u.auth)).toEqual({ products: [] });
  });
});
