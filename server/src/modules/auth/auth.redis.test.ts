import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import {
  buildTestApi,
  newTestAddress,
  registerUser,
  sharedRedisThrottles,
  type TestApi,
} from '@tests/support/api';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';

/** The account throttles with their counts in Redis (REDIS_URL), as scaled api processes keep them. */
describe.each(dbDrivers())('account throttles in Redis, two api processes, on %s', (kind) => {
  let t: TestDb;
  let apis: TestApi[];
  // Two Redis connections and two apps over one database stand for two api processes.
  const redis = sharedRedisThrottles(2);
  /** Alternates between the two processes, as a balancer would. */
  const via = (i: number) => apis[i % 2]!;
  beforeAll(async () => {
    t = await openTestDb(kind);
    apis = [];
    for (const store of redis.stores) apis.push(await buildTestApi(t.db, { redis: store }));
  });
  afterAll(async () => {
    for (const api of apis) await api.close();
    redis.close();
    await t.drop();
  });

  const login = (i: number, from: string, account: string, password: string) =>
    via(i).http.post('/api/auth/login').set('X-Forwarded-For', from).send({ account, password });

  it('blocks a stranger’s pair after ten guesses through either process, not the owner elsewhere', async () => {
    const u = await registerUser(apis[0]!, 'victim');
    const stranger = newTestAddress();
    const guesses = await Promise.all(
      Array.from({ length: 14 }, (_, i) => login(i, stranger, u.account, `guess ${i}`)),
    );
    expect(guesses.map((g) => g.status).sort()).toEqual([
      ...Array<number>(10).fill(401),
      ...Array<number>(4).fill(429),
    ]);
    expect((await login(0, stranger, u.account, u.password)).status).toBe(429);
    expect((await login(1, stranger, u.account, u.password)).status).toBe(429);
    expect((await login(1, newTestAddress(), u.account, u.password)).status).toBe(200);
  });

  it('stops guessing spread over addresses and processes at 100 per account', async () => {
    const u = await registerUser(apis[0]!, 'spread');
    const addresses = Array.from({ length: 11 }, () => newTestAddress());
    const guesses = await Promise.all(
      addresses.flatMap((from, a) =>
        Array.from({ length: 10 }, (_, i) => login(a + i, from, u.account, `guess ${i}`)),
      ),
    );
    // 110 guesses from 11 addresses, none past its pair's 10: the account's 100 stop the rest.
    expect(guesses.filter((g) => g.status === 401)).toHaveLength(100);
    expect(guesses.filter((g) => g.status === 429)).toHaveLength(10);
    expect((await login(1, newTestAddress(), u.account, u.password)).status).toBe(429);
  });

  it('counts registrations and step-1 checks per address across processes', async () => {
    const from = newTestAddress();
    const check = (i: number) =>
      via(i)
        .http.post('/api/auth/register/check')
        .set('X-Forwarded-For', from)
        .send({ account: `probe_${i}`, phone: '13800138000', inviteCode: 'WELCOME' });
    const checks = await Promise.all(Array.from({ length: 34 }, (_, i) => check(i)));
    expect(checks.map((c) => c.status).sort()).toEqual([
      ...Array<number>(30).fill(200),
      ...Array<number>(4).fill(429),
    ]);
    const register = (i: number) =>
      via(i)
        .http.post('/api/auth/register')
        .set('X-Forwarded-For', from)
        .send({
          account: `redis_reg_${i}`,
          phone: '13800138000',
          inviteCode: 'WELCOME',
          password: 'correct horse 1',
          passwordConfirm: 'correct horse 1',
          tradePassword: '123456',
          tradePasswordConfirm: '123456',
          acceptTerms: DEFAULT_TERMS_VERSION,
        });
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await register(i)).status);
    expect(answers).toEqual([...Array<number>(10).fill(201), 429]);
  });
});
