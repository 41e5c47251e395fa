import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { fund } from '@tests/support/orders';
import { expectLedgerOk, type TestUser } from '@tests/support/wallet';
import {
  DAY_MS,
  allRecords,
  frozenClock,
  savingsOf,
  toNextCutoff,
  transferSavings,
} from '@tests/support/savings';
import { createSavingsJob, type SavingsJobDeps } from './savings.job';
import { savingsPolicy } from './savings.policy';
import { loadConfig } from '@server/config';

/** The rule in a line: at each cut-off pending joins confirmed, then confirmed earns ⌊c × 365 / 3 650 000⌋. */
const cutoff = (s: { pending: number; confirmed: number }) => {
  const confirmed = s.confirmed + s.pending;
  const income = Math.floor((confirmed * 365) / 3_650_000);
  return { pending: 0, confirmed: confirmed + income, income };
};

describe.each(dbDrivers())('the savings daily job on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  const clock = frozenClock(Date.UTC(2026, 2, 1, 10));
  const policy = savingsPolicy(loadConfig({}));
  const job = (extra: Partial<SavingsJobDeps> = {}) =>
    createSavingsJob({ db: t.db, clock, policy, balancesChanged: () => undefined, ...extra });

  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { clock });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  /** `n` users, each with `amount × (i + 1)` transferred in today. */
  const savers = async (n: number, amount = 1_000_000): Promise<TestUser[]> => {
    const users: TestUser[] = [];
    for (let i = 0; i < n; i++) {
      const u = await registerUser(api, 'job');
      await fund(t.db, u.user.id, amount * (i + 1));
      await transferSavings(api, u, 'in', amount * (i + 1)).expect(201);
      users.push(u);
    }
    return users;
  };
  const count = async (sql: string, userIds: TestUser[]) =>
    (await t.db.query<{ n: number }>(sql, [userIds.map((u) => Number(u.user.id))])).rows[0]!.n;
  const daysOf = (users: TestUser[]) =>
    count('SELECT count(*)::int AS n FROM savings_days WHERE user_id = ANY($1::bigint[])', users);
  const incomeTransfers = (users: TestUser[]) =>
    count(
      "SELECT count(*)::int AS n FROM transfers WHERE kind = 'savings_income' AND user_id = ANY($1::bigint[])",
      users,
    );
  /** Reads shares straight from the ledger (the API would catch up on its own). */
  const sharesOf = async (u: TestUser) => {
    const { rows } = await t.db.query<{ kind: string; balance: number }>(
      "SELECT kind, balance FROM ledger_accounts WHERE owner_id = $1 AND kind LIKE 'savings_%'",
      [u.user.id],
    );
    const of = (k: string) => rows.find((r) => r.kind === k)?.balance ?? 0;
    return { pending: of('savings_pending'), confirmed: of('savings_confirmed') };
  };

  it('pays once when run twice, or by two instances at once', async () => {
    const users = await savers(5);
    toNextCutoff(clock);
    const first = await job().runOnce();
    expect(first.users).toBeGreaterThanOrEqual(5);
    expect(await job().runOnce()).toEqual({ users: 0, days: 0 });
    expect(await daysOf(users)).toBe(5);

    toNextCutoff(clock);
    const [a, b, c] = await Promise.all([job().runOnce(), job().runOnce(), job().runOnce()]);
    expect(a.users + b.users + c.users).toBeGreaterThanOrEqual(5);
    expect(await daysOf(users)).toBe(10);
    expect(await incomeTransfers(users)).toBe(10);
    for (const [i, u] of users.entries()) {
      const expected = cutoff(cutoff({ pending: 1_000_000 * (i + 1), confirmed: 0 }));
      expect(await sharesOf(u)).toEqual({ pending: 0, confirmed: expected.confirmed });
    }
    await expectLedgerOk(api);
  });

  it('pays each user once when a run dies half way and is run again', async () => {
    const users = await savers(6, 500_000);
    toNextCutoff(clock);
    await job().runOnce(); // everyone else up to date: the batches below are these six
    // Killed in the batch that reaches the fourth of them: earlier batches committed, that one not.
    const ids = users.map((u) => Number(u.user.id));
    let killed: number[] = [];
    const dying = job({
      batchSize: 2,
      beforeCommit: (batch) => {
        if (batch.includes(ids[3]!)) {
          killed = batch;
          throw new Error('killed');
        }
      },
    });
    toNextCutoff(clock);
    await expect(dying.runOnce()).rejects.toThrow('killed');
    const paidOnce = async () =>
      (
        await t.db.query<{ user_id: number }>(
          `SELECT user_id FROM savings_days WHERE user_id = ANY($1::bigint[])
           GROUP BY user_id HAVING count(*) = 2 ORDER BY user_id`,
          [ids],
        )
      ).rows.map((r) => r.user_id);
    const before = await paidOnce();
    expect(before).toEqual(ids.slice(0, before.length));
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.length).toBeLessThan(4);
    for (const id of killed) expect(before).not.toContain(id);

    const rerun = await job({ batchSize: 2 }).runOnce();
    expect(rerun.users).toBe(6 - before.length);
    expect(await paidOnce()).toEqual(ids);
    expect(await job().runOnce()).toEqual({ users: 0, days: 0 });
    expect(await daysOf(users)).toBe(12);
    expect(await incomeTransfers(users)).toBe(12);
    for (const [i, u] of users.entries()) {
      const expected = cutoff(cutoff({ pending: 500_000 * (i + 1), confirmed: 0 }));
      expect(await sharesOf(u)).toEqual({ pending: 0, confirmed: expected.confirmed });
    }
    await expectLedgerOk(api);
  });

  it('catches up every missed day after downtime, in order, compounding', async () => {
    await job().runOnce();
    const [u] = await savers(1, 2_000_000);
    const day0 = clock.now();
    // A second transfer two days later: the transfer itself applies the two cut-offs first.
    clock.advance(2 * DAY_MS);
    await fund(t.db, u!.user.id, 3_000_000);
    await transferSavings(api, u!, 'in', 3_000_000).expect(201);
    expect(await sharesOf(u!)).toEqual({
      pending: 3_000_000,
      confirmed: cutoff(cutoff({ pending: 2_000_000, confirmed: 0 })).confirmed,
    });
    // Ten days with no job at all, then two instances catch up together.
    clock.advance(10 * DAY_MS);
    await Promise.all([job({ batchSize: 1 }).runOnce(), job({ batchSize: 1 }).runOnce()]);

    let s = { pending: 2_000_000, confirmed: 0 };
    const expectedDays: { day: string; base: number; income: number }[] = [];
    for (let d = 0; d < 12; d++) {
      if (d === 2) s.pending += 3_000_000;
      const next = cutoff(s);
      expectedDays.push({
        day: new Date(day0 + d * DAY_MS).toISOString().slice(0, 10),
        base: s.confirmed + s.pending,
        income: next.income,
      });
      s = next;
    }
    const { rows } = await t.db.query<{ day: string; base: number; income: number }>(
      'SELECT day::text AS day, base, income FROM savings_days WHERE user_id = $1 ORDER BY day',
      [u!.user.id],
    );
    expect(rows).toEqual(expectedDays);
    expect(await savingsOf(api, u!)).toMatchObject({
      pending: 0,
      confirmed: s.confirmed,
      yesterdayIncome: expectedDays.at(-1)!.income,
      totalIncome: expectedDays.reduce((sum, d) => sum + d.income, 0),
    });
    // Income records follow the days, each dated at its cut-off, oldest first in id order.
    const incomes = (await allRecords(api, u!)).filter((r) => r.type === 'income').reverse();
    expect(incomes.map((r) => r.day)).toEqual(expectedDays.map((d) => d.day));
    expect(incomes.map((r) => r.createdAt)).toEqual(
      expectedDays.map((d) => Date.parse(`${d.day}T00:00:00Z`) + DAY_MS),
    );
    await expectLedgerOk(api);
  });

  it('keeps a transfer racing the job across a cut-off in its own day', async () => {
    const users = await savers(3, 100_000);
    await Promise.all(users.map((u) => fund(t.db, u.user.id, 50_000)));
    toNextCutoff(clock);
    // Whichever comes first, the cut-off is applied before the new day's transfer in.
    await Promise.all([
      job().runOnce(),
      ...users.map((u) => transferSavings(api, u, 'in', 50_000).expect(201)),
      job().runOnce(),
    ]);
    for (const [i, u] of users.entries()) {
      const confirmed = cutoff({ pending: 100_000 * (i + 1), confirmed: 0 }).confirmed;
      expect(await sharesOf(u)).toEqual({ pending: 50_000, confirmed });
    }
    await expectLedgerOk(api);
  });
});

describe.each(dbDrivers())('a first transfer in racing itself on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { clock: frozenClock(), env: { SAVINGS_DAILY_IN: '1' } });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  it('lets exactly one of 4 concurrent first transfers in through when one is allowed a day', async () => {
    const u = await registerUser(api, 'first');
    await fund(t.db, u.user.id, 100_000);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => transferSavings(api, u, 'in', 10_000)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body.error.code).toBe('DAILY_LIMIT_REACHED');
    expect(await savingsOf(api, u)).toMatchObject({ pending: 10_000, inRemainingToday: 0 });
    await expectLedgerOk(api);
  });
});
