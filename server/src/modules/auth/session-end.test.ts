import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionTokenHash } from '@server/platform/user-events';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';

/**
 * Which sessions' sockets the auth service ends (the sockets themselves: gateway tests and
 * server/src/main/embedded-sessions.test.ts). Recorded through the UserEvents seam.
 */
describe.each(dbDrivers())('ending sessions’ sockets on %s', (kind) => {
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

  const login = async (account: string, password: string) =>
    (await api.http.post('/api/auth/login').send({ account, password }).expect(200)).body
      .token as string;
  const endedSince = (mark: number) => api.userEvents.ended.slice(mark);

  it('names sessions by the hash the gateway computes from the token', async () => {
    const u = await registerUser(api, 'hash');
    expect((await api.auth.authenticate(u.token))?.tokenHash).toBe(sessionTokenHash(u.token));
  });

  it('logout ends that session’s sockets, and only that session’s', async () => {
    const u = await registerUser(api, 'endout');
    await login(u.account, u.password);
    const mark = api.userEvents.ended.length;
    await api.http.post('/api/auth/logout').set(u.auth).expect(204);
    expect(endedSince(mark)).toEqual([
      { tokenHashes: [sessionTokenHash(u.token)], reason: 'logout' },
    ]);
  });

  it('a password change ends every other session of the user, not this one nor anyone else’s', async () => {
    const u = await registerUser(api, 'endpw');
    const stranger = await registerUser(api, 'endpwx');
    const others = await Promise.all([login(u.account, u.password), login(u.account, u.password)]);
    const mark = api.userEvents.ended.length;
    const change = (oldPassword: string) =>
      api.http
        .post('/api/me/password')
        .set(u.auth)
        .send({ oldPassword, newPassword: 'next pass 22', confirmPassword: 'next pass 22' });
    await change('not the password').expect(403);
    expect(endedSince(mark)).toEqual([]); // a refused change ends nothing
    await change(u.password).expect(204);
    const ended = endedSince(mark);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.reason).toBe('password_changed');
    expect(ended[0]!.tokenHashes.sort()).toEqual(others.map(sessionTokenHash).sort());
    expect(ended[0]!.tokenHashes).not.toContain(sessionTokenHash(stranger.token));
  });

  it('a transaction-password change gives its own reason; with no other session it ends none', async () => {
    const u = await registerUser(api, 'endtp');
    const other = await login(u.account, u.password);
    const mark = api.userEvents.ended.length;
    const change = () =>
      api.http
        .post('/api/me/trade-password')
        .set(u.auth)
        .send({ oldPassword: '123456', newPassword: '123456', confirmPassword: '123456' })
        .expect(204);
    await change();
    expect(endedSince(mark)).toEqual([
      { tokenHashes: [sessionTokenHash(other)], reason: 'trade_password_changed' },
    ]);
    await change(); // the other session is already over
    expect(endedSince(mark)).toHaveLength(1);
  });
});
