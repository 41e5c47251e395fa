import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { fund } from '@tests/support/orders';
import { expectLedgerOk, summaryOf, type TestUser } from '@tests/support/wallet';
import {
  allRecords,
  frozenClock,
  savingsOf,
  toNextCutoff,
  transferSavings,
} from '@tests/support/savings';

/**
 * Model-based test: a month of platform days with random transfers in and out (within the
 * limits or not, affordable or not), the daily job run on most days and left out on others (the
 * missed cut-offs are then applied by the next transfer, read or run), compared with a few lines
 * of bookkeeping after every step, to the cent. Rate 4.73 % so that the rounding shows.
 */

const USERS = 3;
const DAYS = 30;
const MINUTE = 60_000;

type Op = {
  who: number;
  dir: 'in' | 'out';
  amount: { share: number } | { fixed: number };
  waitMin: number;
};
interface Day {
  ops: Op[];
  /** Whether any api's job runs just after the cut-off that ends this day. */
  job: boolean;
  /** Whether the figures are read (and compared) at the end of this day. */
  check: boolean;
}

const op: fc.Arbitrary<Op> = fc.record({
  who: fc.integer({ min: 0, max: USERS - 1 }),
  dir: fc.constantFrom<'in' | 'out'>('in', 'in', 'out'),
  amount: fc.oneof(
    { weight: 8, arbitrary: fc.record({ share: fc.double({ min: 0, max: 1.1, noNaN: true }) }) },
    fc.record({ fixed: fc.constantFrom(0, 99, 100, 99_999_901) }),
  ),
  waitMin: fc.integer({ min: 0, max: 60 }),
});
const day: fc.Arbitrary<Day> = fc.record({
  ops: fc.array(op, { maxLength: 12 }),
  job: fc.constantFrom(true, true, true, false),
  check: fc.boolean(),
});

interface Model {
  available: number;
  pending: number;
  confirmed: number;
  yesterdayIncome: number;
  totalIncome: number;
  today: { in: number; out: number };
  records: { in: number; out: number; income: number };
}

const newModel = (available: number): Model => ({
  available,
  pending: 0,
  confirmed: 0,
  yesterdayIncome: 0,
  totalIncome: 0,
  today: { in: 0, out: 0 },
  records: { in: 0, out: 0, income: 0 },
});

/** The cut-off: pending joins confirmed, then confirmed earns ⌊c × 4.73 % / 365⌋. */
function cutoff(m: Model): void {
  m.confirmed += m.pending;
  m.pending = 0;
  const income = Math.floor((m.confirmed * 473) / (10_000 * 365));
  m.confirmed += income;
  m.totalIncome += income;
  m.yesterdayIncome = income;
  if (income > 0) m.records.income++;
  m.today = { in: 0, out: 0 };
}

/** What the server must answer to one transfer, applied to the model when it succeeds. */
function apply(m: Model, dir: 'in' | 'out', amount: number): { status: number; code?: string } {
  if (amount < 100 || amount > 99_999_900) return { status: 400, code: 'AMOUNT_OUT_OF_RANGE' };
  if (m.today[dir] >= 3) return { status: 409, code: 'DAILY_LIMIT_REACHED' };
  if (dir === 'in') {
    if (amount > m.available) return { status: 409, code: 'INSUFFICIENT_BALANCE' };
    m.available -= amount;
    m.pending += amount;
  } else {
    if (amount > m.pending + m.confirmed) return { status: 409, code: 'INSUFFICIENT_BALANCE' };
    const fromPending = Math.min(amount, m.pending);
    m.pending -= fromPending;
    m.confirmed -= amount - fromPending;
    m.available += amount;
  }
  m.today[dir]++;
  m.records[dir]++;
  return { status: 201 };
}

describe.each(dbDrivers())('savings over a month against a model on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  const clock = frozenClock(Date.UTC(2026, 0, 20, 0, 0, 1));
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { clock, env: { SAVINGS_ANNUAL_RATE: '0.0473' } });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const compare = async (u: TestUser, m: Model, when: string) => {
    expect(await savingsOf(api, u), when).toEqual({
      total: m.pending + m.confirmed,
      confirmed: m.confirmed,
      pending: m.pending,
      yesterdayIncome: m.yesterdayIncome,
      totalIncome: m.totalIncome,
      annualRate: '0.0473',
      inRemainingToday: 3 - m.today.in,
      outRemainingToday: 3 - m.today.out,
    });
    expect((await summaryOf(api, u)).available, when).toBe(m.available);
  };

  it('matches the model to the cent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 5_000, max: 2_000_000 }), {
          minLength: USERS,
          maxLength: USERS,
        }),
        fc.array(day, { minLength: DAYS, maxLength: DAYS }),
        async (funding, days) => {
          const users: TestUser[] = [];
          const models: Model[] = [];
          for (const units of funding) {
            const u = await registerUser(api, 'model');
            await fund(t.db, u.user.id, units * 100);
            users.push(u);
            models.push(newModel(units * 100));
          }
          for (const [d, plan] of days.entries()) {
            for (const o of plan.ops) {
              clock.advance(o.waitMin * MINUTE);
              const m = models[o.who]!;
              const amount =
                'fixed' in o.amount
                  ? o.amount.fixed
                  : Math.floor(
                      (o.dir === 'in' ? m.available : m.pending + m.confirmed) * o.amount.share,
                    );
              const expected = apply(m, o.dir, amount);
              const res = await transferSavings(api, users[o.who]!, o.dir, amount);
              const when = `day ${d}: ${o.dir} ${amount} by user ${o.who}`;
              expect(res.status, when).toBe(expected.status);
              if (expected.code) expect(res.body.error.code, when).toBe(expected.code);
              else expect(res.body, when).toMatchObject({ type: o.dir, amount });
            }
            if (plan.check)
              for (const [i, u] of users.entries()) await compare(u, models[i]!, `end of day ${d}`);
            toNextCutoff(clock);
            models.forEach(cutoff);
            if (plan.job) await api.savingsJob.runOnce();
          }
          for (const [i, u] of users.entries()) {
            const m = models[i]!;
            await compare(u, m, 'after the month');
            const records = await allRecords(api, u);
            const countOf = (type: string) => records.filter((r) => r.type === type).length;
            expect({ in: countOf('in'), out: countOf('out'), income: countOf('income') }).toEqual(
              m.records,
            );
            const incomes = records.filter((r) => r.type === 'income');
            expect(incomes.reduce((s, r) => s + r.amount, 0)).toBe(m.totalIncome);
          }
          await expectLedgerOk(api);
        },
      ),
      { numRuns: 2, endOnFailure: true },
    );
  }, 120_000);
});
