import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { fund } from '@tests/support/orders';
import { expectLedgerOk, summaryOf } from '@tests/support/wallet';
import {
  DAY_MS,
  allRecords,
  frozenClock,
  savingsOf,
  toNextCutoff,
  transferSavings,
} from '@tests/support/savings';

const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

describe.each(dbDrivers())('savings balance on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  const clock = frozenClock();
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { clock });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const newUser = async (balance = 1_000_000) => {
    const u = await registerUser(api, 'sav');
    if (balance) await fund(t.db, u.user.id, balance);
    return u;
  };

  it('starts empty, with the rate and three transfers each way today', async () => {
    const u = await newUser(0);
    expect(await savingsOf(api, u)).toEqual({
      total: 0,
      confirmed: 0,
      pending: 0,
      yesterdayIncome: 0,
      totalIncome: 0,
      annualRate: '0.0365',
      inRemainingToday: 3,
      outRemainingToday: 3,
    });
    expect((await api.http.get('/api/savings/records').set(u.auth).expect(200)).body).toEqual({
      items: [],
      nextCursor: null,
    });
    await api.http.get('/api/savings').expect(401);
    await api.http.post('/api/savings/in').send({ amount: 100 }).expect(401);
  });

  it('moves money in as pending, confirms it at the cut-off with the first income, and out again', async () => {
    const u = await newUser(1_000_000);
    const res = await transferSavings(api, u, 'in', 500_000).expect(201);
    expect(res.body).toMatchObject({ type: 'in', amount: 500_000, day: '2026-01-10' });
    expect(res.body.createdAt).toBe(clock.now());
    expect(await savingsOf(api, u)).toMatchObject({
      total: 500_000,
      pending: 500_000,
      confirmed: 0,
      yesterdayIncome: 0,
      inRemainingToday: 2,
      outRemainingToday: 3,
    });
    expect(await summaryOf(api, u)).toMatchObject({ available: 500_000, totalAssets: 1_000_000 });
    // The balance event follows the commit, after a read of the summary of its own: the answer
    // may come first on a loaded machine.
    await expect
      .poll(() => api.userEvents.sent.some((e) => e.userId === u.user.id && e.event === 'balance'))
      .toBe(true);

    toNextCutoff(clock);
    await api.savingsJob.runOnce();
    // 5 000.00 × 3.65 % / 365 = 0.50 on the day it was confirmed.
    expect(await savingsOf(api, u)).toMatchObject({
      total: 500_050,
      pending: 0,
      confirmed: 500_050,
      yesterdayIncome: 50,
      totalIncome: 50,
      inRemainingToday: 3,
    });

    // Out draws pending shares first, then confirmed.
    await transferSavings(api, u, 'in', 10_000).expect(201);
    await transferSavings(api, u, 'out', 30_000).expect(201);
    expect(await savingsOf(api, u)).toMatchObject({
      pending: 0,
      confirmed: 480_050,
      outRemainingToday: 2,
      inRemainingToday: 2,
    });
    expect(await summaryOf(api, u)).toMatchObject({ available: 520_000, totalAssets: 1_000_050 });
    const records = await allRecords(api, u);
    expect(records.map((r) => [r.type, r.amount, r.day])).toEqual([
      ['out', 30_000, '2026-01-11'],
      ['in', 10_000, '2026-01-11'],
      ['income', 50, '2026-01-10'],
      ['in', 500_000, '2026-01-10'],
    ]);
    // Income is dated at the cut-off that paid it.
    expect(records[2]!.createdAt).toBe(Date.UTC(2026, 0, 11));
    await expectLedgerOk(api);
  });

  it('refuses bad amounts with a clear 400 naming the field', async () => {
    const u = await newUser(1_000_000);
    for (const amount of [1.5, -100, '100', null, true, [100], 2 ** 60]) {
      const res = await transferSavings(api, u, 'in', amount).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'amount' });
    }
    await api.http
      .post('/api/savings/in')
      .set(u.auth)
      .send({})
      .expect(400)
      .expect((r) => expect(r.body.error.code).toBe('VALIDATION_FAILED'));
    for (const amount of [0, 99, 99_999_901]) {
      for (const direction of ['in', 'out'] as const) {
        const res = await transferSavings(api, u, direction, amount).expect(400);
        expect(res.body.error).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', field: 'amount' });
      }
    }
    const bad = await transferSavings(api, u, 'in', 100, 'x'.repeat(256)).expect(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'Idempotency-Key' });
    await api.http
      .get('/api/savings/records?cursor=abc')
      .set(u.auth)
      .expect(400)
      .expect((r) => expect(r.body.error.code).toBe('VALIDATION_FAILED'));
    // Nothing moved, and no refusal used up a transfer of today.
    expect(await savingsOf(api, u)).toMatchObject({
      total: 0,
      inRemainingToday: 3,
      outRemainingToday: 3,
    });
  });

  it('refuses more than there is with 409 INSUFFICIENT_BALANCE, counting nothing', async () => {
    const u = await newUser(10_000);
    const over = await transferSavings(api, u, 'in', 10_001).expect(409);
    expect(over.body.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    const none = await transferSavings(api, u, 'out', 100).expect(409);
    expect(none.body.error.code).toBe('INSUFFICIENT_BALANCE');
    await transferSavings(api, u, 'in', 10_000).expect(201);
    expect((await transferSavings(api, u, 'out', 10_001).expect(409)).body.error.code).toBe(
      'INSUFFICIENT_BALANCE',
    );
    await transferSavings(api, u, 'out', 10_000).expect(201);
    expect(await savingsOf(api, u)).toMatchObject({
      total: 0,
      inRemainingToday: 2,
      outRemainingToday: 2,
    });
    expect((await summaryOf(api, u)).available).toBe(10_000);
  });

  it('allows three transfers each way per platform day, and three more the next day', async () => {
    const u = await newUser(1_000_000);
    for (let i = 0; i < 3; i++) await transferSavings(api, u, 'in', 1000).expect(201);
    const fourth = await transferSavings(api, u, 'in', 1000).expect(409);
    expect(fourth.body.error.code).toBe('DAILY_LIMIT_REACHED');
    for (let i = 0; i < 3; i++) await transferSavings(api, u, 'out', 500).expect(201);
    expect((await transferSavings(api, u, 'out', 500).expect(409)).body.error.code).toBe(
      'DAILY_LIMIT_REACHED',
    );
    expect(await savingsOf(api, u)).toMatchObject({
      total: 1500,
      inRemainingToday: 0,
      outRemainingToday: 0,
    });
    toNextCutoff(clock);
    expect(await savingsOf(api, u)).toMatchObject({ inRemainingToday: 3, outRemainingToday: 3 });
    await transferSavings(api, u, 'in', 1000).expect(201);
  });

  it('lets exactly one of 4 concurrent transfers in through when one is left today', async () => {
    const u = await newUser(1_000_000);
    await transferSavings(api, u, 'in', 1000).expect(201);
    await transferSavings(api, u, 'in', 1000).expect(201);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => transferSavings(api, u, 'in', 1000)),
    );
    expect(statuses(answers)).toEqual([201, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body.error.code).toBe('DAILY_LIMIT_REACHED');
    expect(await savingsOf(api, u)).toMatchObject({ pending: 3000, inRemainingToday: 0 });
    expect((await summaryOf(api, u)).available).toBe(997_000);
    await expectLedgerOk(api);
  });

  it('lets exactly one of 4 concurrent transfers out of everything through', async () => {
    const u = await newUser(1_000_000);
    await transferSavings(api, u, 'in', 400_000).expect(201);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => transferSavings(api, u, 'out', 400_000)),
    );
    expect(statuses(answers)).toEqual([201, 409, 409, 409]);
    expect(await savingsOf(api, u)).toMatchObject({ total: 0, outRemainingToday: 2 });
    expect((await summaryOf(api, u)).available).toBe(1_000_000);
  });

  it('replays a repeated Idempotency-Key and refuses it with another body', async () => {
    const u = await newUser(100_000);
    const first = await transferSavings(api, u, 'in', 20_000, 'sav-key-1').expect(201);
    const again = await transferSavings(api, u, 'in', 20_000, 'sav-key-1').expect(201);
    expect(again.body).toEqual(first.body);
    const racing = await Promise.all(
      Array.from({ length: 3 }, () => transferSavings(api, u, 'in', 5000, 'sav-key-2')),
    );
    expect(statuses(racing)).toEqual([201, 201, 201]);
    expect(new Set(racing.map((r) => (r.body as { id: string }).id)).size).toBe(1);
    const other = await transferSavings(api, u, 'out', 20_000, 'sav-key-1').expect(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_MISMATCH');
    expect(await savingsOf(api, u)).toMatchObject({ pending: 25_000, inRemainingToday: 1 });
  });

  it('pages the records newest first', async () => {
    const u = await newUser(1_000_000);
    for (let day = 0; day < 3; day++) {
      await transferSavings(api, u, 'in', 100_000).expect(201);
      await transferSavings(api, u, 'out', 1000).expect(201);
      toNextCutoff(clock);
    }
    const all = await allRecords(api, u);
    // Three days: in, out, then income at each cut-off.
    expect(all.map((r) => r.type)).toEqual([
      'income',
      'out',
      'in',
      'income',
      'out',
      'in',
      'income',
      'out',
      'in',
    ]);
    const ids = all.map((r) => Number(r.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const first = await api.http.get('/api/savings/records?limit=4').set(u.auth).expect(200);
    expect(first.body.items).toEqual(all.slice(0, 4));
    const second = await api.http
      .get(`/api/savings/records?limit=4&cursor=${first.body.nextCursor}`)
      .set(u.auth)
      .expect(200);
    expect(second.body.items).toEqual(all.slice(4, 8));
    // Another user sees none of them.
    const other = await newUser(0);
    expect(await allRecords(api, other)).toEqual([]);
  });

  it('has no test clock unless the server starts with TEST_CLOCK=1', async () => {
    const res = await api.http.post('/api/test/clock').send({ advanceMs: DAY_MS }).expect(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    await api.http.get('/api/test/clock').expect(404);
    expect((await api.http.get('/api/app-info').expect(200)).body.testClock).toBeUndefined();
  });
});

describe.each(dbDrivers())('the test clock (TEST_CLOCK=1) on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  const clock = frozenClock(Date.UTC(2026, 4, 1, 22));
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { clock, env: { TEST_CLOCK: '1' } });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  it('moves the platform clock forward and runs the daily job', async () => {
    expect((await api.http.get('/api/app-info').expect(200)).body.testClock).toBe(true);
    const u = await registerUser(api, 'clk');
    await fund(t.db, u.user.id, 1_000_000);
    await transferSavings(api, u, 'in', 1_000_000).expect(201);
    const before = (await api.http.get('/api/test/clock').expect(200)).body;
    expect(before).toEqual({ now: clock.now(), nextCutoff: Date.UTC(2026, 4, 2) });
    const moved = await api.http
      .post('/api/test/clock')
      .send({ advanceMs: before.nextCutoff - before.now + 1 })
      .expect(200);
    expect(moved.body).toEqual({ now: Date.UTC(2026, 4, 2) + 1, nextCutoff: Date.UTC(2026, 4, 3) });
    // Paid by the job the route ran, not by this read.
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM savings_days WHERE user_id = $1',
      [u.user.id],
    );
    expect(rows[0]!.n).toBe(1);
    expect(await savingsOf(api, u)).toMatchObject({
      confirmed: 1_000_100,
      pending: 0,
      yesterdayIncome: 100,
    });
    for (const advanceMs of [-1, 1.5, 'soon'])
      await api.http.post('/api/test/clock').send({ advanceMs }).expect(400);
  });
});
