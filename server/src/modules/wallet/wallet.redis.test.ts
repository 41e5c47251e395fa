import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, sharedRedisThrottles, type TestApi } from '@tests/support/api';
import {
  bankDepositFields,
  deposit,
  expectLedgerOk,
  opsAuth,
  postDeposit,
  readyUser,
  summaryOf,
  TRADE_PASSWORD,
} from '@tests/support/wallet';

const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

/** The wallet's throttles with their counts in Redis (REDIS_URL), shared by two api processes. */
describe.each(dbDrivers())('wallet throttles in Redis, two api processes, on %s', (kind) => {
  let t: TestDb;
  let apis: TestApi[];
  // Two Redis connections and two apps over one database stand for two api processes.
  const redis = sharedRedisThrottles(2);
  const via = (i: number) => apis[i % 2]!;
  /** Screenshots on disk, in both processes' upload folders (made at the first upload). */
  const filesOnDisk = () =>
    apis.reduce(
      (n, api) => n + (fs.existsSync(api.uploadsDir) ? fs.readdirSync(api.uploadsDir).length : 0),
      0,
    );
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

  const withdraw = (
    i: number,
    u: { auth: object; accountId: string },
    amount: number,
    tradePassword: string,
  ) =>
    via(i)
      .http.post('/api/withdrawals')
      .set(u.auth as Record<string, string>)
      .send({ accountId: u.accountId, amount, tradePassword });

  it('takes 50 withdrawals with the right password sent at once through both processes as far as the balance goes', async () => {
    const u = await readyUser(apis[0]!, 100_000);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => withdraw(i, u, 3_000, TRADE_PASSWORD)),
    );
    expect(statuses(answers)).toEqual([
      ...Array<number>(33).fill(201),
      ...Array<number>(17).fill(409),
    ]);
    expect(await summaryOf(apis[1]!, u)).toMatchObject({ available: 1_000, withdrawHold: 99_000 });
    await expectLedgerOk(apis[0]!);
  });

  it('still runs at most 10 wrong transaction passwords sent at once through both processes', async () => {
    const u = await readyUser(apis[0]!, 100_000, 'guess');
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => withdraw(i, u, 10_000, String(100_000 + i))),
    );
    expect(answers.map((a) => `${a.status} ${a.body.error.code}`).sort()).toEqual([
      ...Array<string>(10).fill('403 WRONG_TRADE_PASSWORD'),
      ...Array<string>(6).fill('429 TOO_MANY_ATTEMPTS'),
    ]);
    expect((await withdraw(1, u, 10_000, TRADE_PASSWORD)).status).toBe(429);
    expect(await summaryOf(apis[0]!, u)).toMatchObject({ available: 100_000, withdrawHold: 0 });
  });

  it('counts a user’s deposits across processes: 5 waiting at most, 10 an hour', async () => {
    const u = await registerUser(apis[0]!, 'dep');
    const files = filesOnDisk();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => postDeposit(via(i), u.auth, bankDepositFields(1000))),
    );
    expect(statuses(answers)).toEqual([
      ...Array<number>(5).fill(201),
      ...Array<number>(3).fill(409),
    ]);
    expect(filesOnDisk()).toBe(files + 5);
    const pending = await apis[0]!.http.get('/api/deposits').set(u.auth).expect(200);
    for (const d of pending.body.items as { id: string }[])
      await apis[0]!.http.post(`/api/ops/deposits/${d.id}/approve`).set(opsAuth).expect(200);
    // 8 of the hour's 10 are spent: two more, then 429.
    await deposit(via(0), u, 1000);
    await deposit(via(1), u, 1000);
    const limited = await postDeposit(via(0), u.auth, bankDepositFields(1000)).expect(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
  });
});
