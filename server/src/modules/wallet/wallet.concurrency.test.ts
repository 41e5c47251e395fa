import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, type TestApi } from '@tests/support/api';
import {
  bankDepositFields,
  deposit,
  expectLedgerOk,
  images,
  itemsOf,
  opsAuth,
  postDeposit,
  readyUser,
  summaryOf,
} from '@tests/support/wallet';

const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

describe.each(dbDrivers())('wallet races and replays on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    // The production throttle on transaction passwords (10 wrong per user): right passwords sent
    // at once wait for the checks under way instead of being refused, so all reach the balance.
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  it('lets exactly one of 50 concurrent withdrawals of the whole balance through, none throttled', async () => {
    const u = await readyUser(api, 100_000);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        api.http
          .post('/api/withdrawals')
          .set(u.auth)
          .send({ accountId: u.accountId, amount: 100_000, tradePassword: '123456' }),
      ),
    );
    expect(statuses(answers)).toEqual([201, ...Array<number>(49).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await summaryOf(api, u)).toMatchObject({ available: 0, withdrawHold: 100_000 });
    const list = await api.http.get('/api/withdrawals').set(u.auth).expect(200);
    expect(list.body.items).toHaveLength(1);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ledger_accounts WHERE balance < 0 AND owner_id IS NOT NULL',
    );
    expect(rows[0]!.n).toBe(0);
    await expectLedgerOk(api);
  });

  it('takes 50 concurrent withdrawals with the right password as far as the balance goes', async () => {
    const u = await readyUser(api, 100_000);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        api.http
          .post('/api/withdrawals')
          .set(u.auth)
          .send({ accountId: u.accountId, amount: 3_000, tradePassword: '123456' }),
      ),
    );
    // 33 × 30.00 fit in 1 000.00; the other 17 find the balance short. None is throttled.
    expect(statuses(answers)).toEqual([
      ...Array<number>(33).fill(201),
      ...Array<number>(17).fill(409),
    ]);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await summaryOf(api, u)).toMatchObject({ available: 1_000, withdrawHold: 99_000 });
    expect(itemsOf(await api.http.get('/api/withdrawals?limit=100').set(u.auth))).toHaveLength(33);
    await expectLedgerOk(api);
  });

  it('lets exactly one of a racing approve and reject end a withdrawal', async () => {
    const u = await readyUser(api, 50_000);
    for (let i = 0; i < 5; i++) {
      const w = await api.http
        .post('/api/withdrawals')
        .set(u.auth)
        .send({ accountId: u.accountId, amount: 10_000, tradePassword: '123456' })
        .expect(201);
      const [approve, reject] = await Promise.all([
        api.http.post(`/api/ops/withdrawals/${w.body.id}/approve`).set(opsAuth),
        api.http
          .post(`/api/ops/withdrawals/${w.body.id}/reject`)
          .set(opsAuth)
          .send({ reason: 'race' }),
      ]);
      expect(statuses([approve, reject])).toEqual([200, 409]);
      const loser = approve.status === 409 ? approve : reject;
      expect(loser.body.error.code).toBe('INVALID_STATE');
    }
    const mine = await api.http.get('/api/withdrawals').set(u.auth).expect(200);
    const paid = itemsOf(mine).filter((w) => w.status === 'success').length;
    expect(await summaryOf(api, u)).toMatchObject({
      available: 50_000 - paid * 10_000,
      withdrawHold: 0,
    });
    await expectLedgerOk(api);
  });

  it('credits a deposit once however often, and however concurrently, it is approved', async () => {
    const u = await readyUser(api, 0);
    const first = await deposit(api, u, 7_000);
    await api.http.post(`/api/ops/deposits/${first}/approve`).set(opsAuth).expect(200);
    const again = await api.http
      .post(`/api/ops/deposits/${first}/approve`)
      .set(opsAuth)
      .expect(409);
    expect(again.body.error.code).toBe('INVALID_STATE');

    const second = await deposit(api, u, 3_000);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2
          ? api.http.post(`/api/ops/deposits/${second}/approve`).set(opsAuth)
          : api.http.post(`/api/ops/deposits/${second}/reject`).set(opsAuth).send({ reason: 'x' }),
      ),
    );
    expect(statuses(answers)).toEqual([200, 409, 409, 409, 409, 409]);
    const won = answers.find((a) => a.status === 200)!.body.status as string;
    expect((await summaryOf(api, u)).available).toBe(7_000 + (won === 'approved' ? 3_000 : 0));
    await expectLedgerOk(api);
  });

  it('replays a withdrawal with the same Idempotency-Key and refuses a changed body', async () => {
    const u = await readyUser(api, 50_000);
    const send = (key: string, amount: number) =>
      api.http
        .post('/api/withdrawals')
        .set(u.auth)
        .set('Idempotency-Key', key)
        .send({ accountId: u.accountId, amount, tradePassword: '123456' });
    const first = await send('wd-key-1', 20_000).expect(201);
    const replays = await Promise.all([1, 2, 3].map(() => send('wd-key-1', 20_000)));
    for (const r of replays) {
      expect(r.status).toBe(201);
      expect(r.body).toEqual(first.body);
    }
    expect(await summaryOf(api, u)).toMatchObject({ available: 30_000, withdrawHold: 20_000 });
    const changed = await send('wd-key-1', 21_000).expect(422);
    expect(changed.body.error).toMatchObject({ code: 'IDEMPOTENCY_MISMATCH' });
    // A refused request stores nothing under its key: the same key may be used again.
    const short = await send('wd-key-2', 40_000).expect(409);
    expect(short.body.error.code).toBe('INSUFFICIENT_BALANCE');
    await send('wd-key-2', 10_000).expect(201);
    expect(await summaryOf(api, u)).toMatchObject({ available: 20_000, withdrawHold: 30_000 });
    const list = await api.http.get('/api/withdrawals').set(u.auth).expect(200);
    expect(list.body.items).toHaveLength(2);
    await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .set('Idempotency-Key', 'x'.repeat(256))
      .send({ accountId: u.accountId, amount: 1000, tradePassword: '123456' })
      .expect(400);
    await expectLedgerOk(api);
  });

  it('replays a deposit with the same key and screenshot, keeping no second file', async () => {
    const u = await readyUser(api, 0);
    const send = (fields: Record<string, string>, bytes = images.png) =>
      postDeposit(api, { ...u.auth, 'Idempotency-Key': 'dep-key-1' }, fields, { bytes });
    const filesBefore = fs.readdirSync(api.uploadsDir).length;
    const first = await send(bankDepositFields(10_000)).expect(201);
    const replay = await send(bankDepositFields(10_000)).expect(201);
    expect(replay.body).toEqual(first.body);
    expect(fs.readdirSync(api.uploadsDir).length).toBe(filesBefore + 1);
    expect((await send(bankDepositFields(20_000)).expect(422)).body.error.code).toBe(
      'IDEMPOTENCY_MISMATCH',
    );
    expect((await send(bankDepositFields(10_000), images.jpeg).expect(422)).body.error.code).toBe(
      'IDEMPOTENCY_MISMATCH',
    );
    const list = await api.http.get('/api/deposits').set(u.auth).expect(200);
    expect(list.body.items).toHaveLength(1);
    expect(fs.readdirSync(api.uploadsDir).length).toBe(filesBefore + 1);
  });
});
