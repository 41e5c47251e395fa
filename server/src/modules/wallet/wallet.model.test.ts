import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import {
  bankAccountBody,
  bankDepositFields,
  expectLedgerOk,
  itemsOf,
  opsAuth,
  postDeposit,
  summaryOf,
  TRADE_PASSWORD,
  type TestUser,
} from '@tests/support/wallet';

/**
 * Model-based test: random sequences of deposits, reviews, binds and withdrawals, valid or not,
 * run against the API and against a few lines of in-memory bookkeeping. After every step the two
 * agree on balances and on every deposit and withdrawal with its status, the ledger checks out,
 * and a refused step changed nothing (the model does not change on a refusal).
 */

type Who = 0 | 1;
/** Which item a review targets: a pending one, any one (often already reviewed), or none. */
type Target = { of: 'pending' | 'any' | 'unknown'; pick: number };
/** How much to withdraw: a share of what is available, more than that, or outside the limits. */
type Amount = { share: number } | { over: number } | { fixed: number };
type Action =
  | { t: 'deposit'; who: Who; amount: number }
  | { t: 'reviewDeposit'; approve: boolean; target: Target }
  | { t: 'bind'; who: Who; type: 'bank' | 'coin' }
  | { t: 'withdraw'; who: Who; amount: Amount; to: 'own' | 'others' | 'unknown' }
  | { t: 'reviewWithdrawal'; approve: boolean; target: Target };

interface Item {
  id: string;
  who: Who;
  amount: number;
  status: string;
}
interface Model {
  balances: { available: number; hold: number }[];
  accounts: Partial<Record<'bank' | 'coin', string>>[];
  deposits: Item[];
  withdrawals: Item[];
  /** Valid deposits each user submitted, accepted or not (the per-user rate). */
  submitted: number[];
}

const who = fc.constantFrom<Who>(0, 1);
const target: fc.Arbitrary<Target> = fc.record({
  of: fc.constantFrom<Target['of']>('pending', 'pending', 'pending', 'any', 'unknown'),
  pick: fc.nat(),
});
// Weighted so that sequences often reach the interesting states: funded, bound, holding.
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('deposit' as const),
      who,
      amount: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 10, max: 2000 }).map((units) => units * 100) },
        fc.constantFrom(0, -1000, 900, 1050, 100_000_100),
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('reviewDeposit' as const),
      approve: fc.constantFrom(true, true, true, false),
      target,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('bind' as const),
      who,
      type: fc.constantFrom('bank' as const, 'coin' as const),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('withdraw' as const),
      who,
      amount: fc.oneof(
        { weight: 4, arbitrary: fc.record({ share: fc.double({ min: 0, max: 1, noNaN: true }) }) },
        fc.record({ over: fc.integer({ min: 1, max: 10_000 }) }),
        fc.record({ fixed: fc.constantFrom(0, -500, 999, 5_000_001) }),
      ),
      to: fc.constantFrom<'own' | 'others' | 'unknown'>(
        'own',
        'own',
        'own',
        'own',
        'others',
        'unknown',
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('reviewWithdrawal' as const),
      approve: fc.boolean(),
      target,
    }),
  },
);

/**
 * Most runs open by binding an account and funding both users, so that the random part that
 * follows spends much of its time on withdrawals and their reviews rather than on refusals.
 */
const opening: fc.Arbitrary<Action[]> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom('bank' as const, 'coin' as const),
        fc.integer({ min: 100, max: 3000 }),
        fc.integer({ min: 100, max: 3000 }),
      )
      .map(([type, a, b]): Action[] => [
        { t: 'bind', who: 0, type },
        { t: 'bind', who: 1, type: type === 'bank' ? 'coin' : 'bank' },
        { t: 'deposit', who: 0, amount: a * 100 },
        { t: 'deposit', who: 1, amount: b * 100 },
        { t: 'reviewDeposit', approve: true, target: { of: 'pending', pick: 0 } },
        { t: 'reviewDeposit', approve: true, target: { of: 'pending', pick: 0 } },
      ]),
  },
  { weight: 1, arbitrary: fc.constant<Action[]>([]) },
);

const UNKNOWN_ID = '987654321';
const PENDING_MAX = 2;
const DEPOSITS_PER_HOUR = 4;
function choose(items: Item[], t: Target): Item | undefined {
  const from =
    t.of === 'unknown' ? [] : items.filter((x) => t.of === 'any' || x.status === 'pending');
  return from.length ? from[t.pick % from.length] : undefined;
}

describe.each(dbDrivers())('wallet model on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    // Identity checks have their own tests; here they would only slow every run down. Small
    // deposit throttles, so that random sequences meet them often.
    api = await buildTestApi(t.db, {
      env: { WITHDRAW_REQUIRES_KYC: 'false' },
      deposits: { pendingMax: PENDING_MAX, rate: { points: DEPOSITS_PER_HOUR, durationSec: 3600 } },
    });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const review = (kind: 'deposits' | 'withdrawals', item: Item | undefined, approve: boolean) =>
    api.http
      .post(`/api/ops/${kind}/${item?.id ?? UNKNOWN_ID}/${approve ? 'approve' : 'reject'}`)
      .set(opsAuth)
      .send({ reason: 'the model says no' });

  /** Runs one step on the API and on the model, expecting the answer the model predicts. */
  async function step(users: TestUser[], m: Model, a: Action): Promise<void> {
    switch (a.t) {
      case 'deposit': {
        const res = await postDeposit(api, users[a.who]!.auth, bankDepositFields(a.amount));
        const valid = a.amount >= 1000 && a.amount <= 100_000_000 && a.amount % 100 === 0;
        // A valid submission spends one of the user's deposits an hour, then meets the cap on
        // those waiting for review.
        const submitted = valid ? ++m.submitted[a.who]! : 0;
        const waiting = m.deposits.filter((d) => d.who === a.who && d.status === 'pending');
        const expected = !valid
          ? 400
          : submitted > DEPOSITS_PER_HOUR
            ? 429
            : waiting.length >= PENDING_MAX
              ? 409
              : 201;
        expect(res.status, JSON.stringify(res.body)).toBe(expected);
        if (expected === 201)
          m.deposits.push({ id: res.body.id, who: a.who, amount: a.amount, status: 'pending' });
        return;
      }
      case 'reviewDeposit': {
        const d = choose(m.deposits, a.target);
        const res = await review('deposits', d, a.approve);
        expect(res.status).toBe(!d ? 404 : d.status === 'pending' ? 200 : 409);
        if (d?.status !== 'pending') return;
        d.status = a.approve ? 'approved' : 'rejected';
        if (a.approve) m.balances[d.who]!.available += d.amount;
        return;
      }
      case 'bind': {
        const body =
          a.type === 'bank'
            ? bankAccountBody
            : {
                type: 'coin',
                network: 'ERC20',
                address: `0x${'ab'.repeat(20)}`,
                tradePassword: TRADE_PASSWORD,
              };
        const res = await api.http
          .post('/api/withdrawal-accounts')
          .set(users[a.who]!.auth)
          .send(body);
        const bound = m.accounts[a.who]![a.type];
        expect(res.status).toBe(bound ? 409 : 201);
        if (!bound) m.accounts[a.who]![a.type] = res.body.id;
        return;
      }
      case 'withdraw': {
        const anyOf = (i: number) => m.accounts[i]!.bank ?? m.accounts[i]!.coin;
        const own = a.to === 'own' ? anyOf(a.who) : undefined;
        const accountId =
          a.to === 'others' ? (anyOf(a.who === 0 ? 1 : 0) ?? UNKNOWN_ID) : (own ?? UNKNOWN_ID);
        const b = m.balances[a.who]!;
        const amount =
          'share' in a.amount
            ? Math.max(1000, Math.floor(b.available * a.amount.share))
            : 'over' in a.amount
              ? b.available + a.amount.over
              : a.amount.fixed;
        const res = await api.http
          .post('/api/withdrawals')
          .set(users[a.who]!.auth)
          .send({ accountId, amount, tradePassword: '123456' });
        const expected = !own
          ? 404
          : amount < 1000 || amount > 5_000_000
            ? 400
            : amount > b.available
              ? 409
              : 201;
        expect(res.status, JSON.stringify(res.body)).toBe(expected);
        if (expected !== 201) return;
        b.available -= amount;
        b.hold += amount;
        m.withdrawals.push({ id: res.body.id, who: a.who, amount, status: 'pending' });
        return;
      }
      case 'reviewWithdrawal': {
        const w = choose(m.withdrawals, a.target);
        const res = await review('withdrawals', w, a.approve);
        expect(res.status).toBe(!w ? 404 : w.status === 'pending' ? 200 : 409);
        if (w?.status !== 'pending') return;
        w.status = a.approve ? 'success' : 'failed';
        const b = m.balances[w.who]!;
        b.hold -= w.amount;
        if (!a.approve) b.available += w.amount;
        return;
      }
    }
  }

  /** The API agrees with the model: balances, and every deposit and withdrawal with its status. */
  async function agree(users: TestUser[], m: Model): Promise<void> {
    for (const i of [0, 1] as const) {
      const b = m.balances[i]!;
      expect(await summaryOf(api, users[i]!)).toMatchObject({
        available: b.available,
        withdrawHold: b.hold,
        totalAssets: b.available + b.hold,
      });
      for (const [path, items] of [
        ['/api/deposits', m.deposits],
        ['/api/withdrawals', m.withdrawals],
      ] as const) {
        const res = await api.http.get(`${path}?limit=100`).set(users[i]!.auth).expect(200);
        const mine = items.filter((x) => x.who === i).reverse();
        expect(itemsOf<Item>(res).map((x) => [x.id, x.amount, x.status])).toEqual(
          mine.map((x) => [x.id, x.amount, x.status]),
        );
      }
    }
    await expectLedgerOk(api);
  }

  it('agrees with a simple model after every step of random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(
        opening,
        fc.array(action, { minLength: 5, maxLength: 18, size: 'max' }),
        async (first, then) => {
          const users = [await registerUser(api, 'model'), await registerUser(api, 'model')];
          const m: Model = {
            balances: [
              { available: 0, hold: 0 },
              { available: 0, hold: 0 },
            ],
            accounts: [{}, {}],
            deposits: [],
            withdrawals: [],
            submitted: [0, 0],
          };
          for (const a of [...first, ...then]) {
            await step(users, m, a);
            await agree(users, m);
          }
        },
      ),
      { numRuns: 10 },
    );
  }, 120_000);
});
