import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeMode } from '@shared/orders/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, type TestApi } from '@tests/support/api';
import {
  backdateOrder,
  liveTick,
  publishMarket,
  recordTick,
  stoppedWorker,
} from '@tests/support/orders';
import {
  bankDepositFields,
  opsAuth,
  postDeposit,
  readyUser,
  TRADE_PASSWORD,
} from '@tests/support/wallet';
import { checkLedger } from '../ledger/ledger';

/**
 * Property test (issue 19): random sequences of real and practice deposits, orders, settlements,
 * resets, savings moves and withdrawals, run through the API. After every step the ledger
 * invariant holds (for each mode on its own: every transfer of one mode, each mode's balances
 * summing to zero), every practice operation leaves every real balance as it was, and every real
 * operation leaves every practice balance as it was.
 */

type Who = 0 | 1;
type Action =
  | { t: 'deposit'; who: Who; mode: TradeMode; amount: number }
  | { t: 'order'; who: Who; mode: TradeMode; amount: number; direction: 'up' | 'down' }
  | { t: 'settle'; mode: TradeMode; win: boolean }
  | { t: 'reset'; who: Who }
  | { t: 'savings'; who: Who; mode: TradeMode; way: 'in' | 'out'; amount: number }
  | { t: 'withdraw'; who: Who; mode: TradeMode; amount: number };

const who = fc.constantFrom<Who>(0, 1);
const mode = fc.constantFrom<TradeMode>('real', 'practice');
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    t: fc.constant('deposit' as const),
    who,
    mode,
    amount: fc.integer({ min: 10, max: 500 }).map((u) => u * 100),
  }),
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('order' as const),
      who,
      mode,
      // Now and then below the minimum stake: refused the same way in both modes.
      amount: fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 10, max: 3000 }).map((u) => u * 100) },
        { weight: 1, arbitrary: fc.constant(999) },
      ),
      direction: fc.constantFrom('up' as const, 'down' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('settle' as const), mode, win: fc.boolean() }),
  },
  fc.record({ t: fc.constant('reset' as const), who }),
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('savings' as const),
      who,
      mode,
      way: fc.constantFrom('in' as const, 'out' as const),
      amount: fc.integer({ min: 1, max: 300 }).map((u) => u * 100),
    }),
  },
  fc.record({
    t: fc.constant('withdraw' as const),
    who,
    mode,
    amount: fc.integer({ min: 10, max: 300 }).map((u) => u * 100),
  }),
);

/** Which money an action may move (a reset moves practice money). */
const modeOf = (a: Action): TradeMode => (a.t === 'reset' ? 'practice' : a.mode);

describe.each(dbDrivers())('practice and real money stay apart on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  let users: Awaited<ReturnType<typeof readyUser>>[];
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, {
      // The order throttle off: the model's steps place orders faster than a person would.
      env: { WITHDRAW_REQUIRES_KYC: 'false', ORDER_RATE: 'off' },
      deposits: { pendingMax: 1000, rate: { points: 100_000, durationSec: 3600 } },
    });
    await publishMarket(api.bus, { ETHUSDT: 'open' });
    users = [await readyUser(api, 200_000, 'modelA'), await readyUser(api, 0, 'modelB')];
    for (const u of users) await api.http.get('/api/account/summary').set(u.auth).expect(200);
    // Two registrations (argon2), identity checks and a deposit: slow on a busy machine.
  }, 180_000);
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  /** Every user account's balance by mode, keyed by account id. */
  const balances = async () => {
    const { rows } = await t.db.query<{ id: number; mode: TradeMode; balance: number }>(
      'SELECT id, mode, balance FROM ledger_accounts WHERE owner_id IS NOT NULL ORDER BY id',
    );
    const of = (m: TradeMode) =>
      Object.fromEntries(rows.filter((r) => r.mode === m).map((r) => [r.id, r.balance]));
    return { real: of('real'), practice: of('practice') };
  };
  const refusedAsPractice = (res: { status: number; body: { error?: { code: string } } }) => {
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('PRACTICE_NOT_ALLOWED');
  };

  /** What the runs did, by step and answer: printed, so a run that exercised little shows. */
  const tally = new Map<string, number>();
  const note = (what: string) => tally.set(what, (tally.get(what) ?? 0) + 1);

  async function step(a: Action): Promise<void> {
    switch (a.t) {
      case 'deposit': {
        const u = users[a.who]!;
        const res = await postDeposit(api, u.auth, {
          ...bankDepositFields(a.amount),
          mode: a.mode,
        });
        note(`deposit ${a.mode} ${res.status}`);
        if (a.mode === 'practice') return refusedAsPractice(res);
        expect(res.status).toBe(201);
        await api.http.post(`/api/ops/deposits/${res.body.id}/approve`).set(opsAuth).expect(200);
        return;
      }
      case 'order': {
        await liveTick(t.db, api.bus, 'ETHUSDT', 300_000);
        const res = await api.http.post('/api/orders').set(users[a.who]!.auth).send({
          productId: 'ETHUSDT',
          direction: a.direction,
          amount: a.amount,
          // The longest rung: no order comes due by itself while a sequence runs.
          duration: 300,
          mode: a.mode,
        });
        expect([201, 400, 409], JSON.stringify(res.body)).toContain(res.status);
        note(`order ${a.mode} ${res.status}`);
        if (res.status === 201) expect(res.body.mode).toBe(a.mode);
        return;
      }
      case 'settle': {
        // Every open order of this mode is made due, on a tape of its own moving the chosen way.
        const { rows } = await t.db.query<{ id: number; direction: string }>(
          "SELECT id, direction FROM orders WHERE status = 'open' AND mode = $1 ORDER BY id",
          [a.mode],
        );
        for (const o of rows) {
          const { acceptedMs, expiresMs } = await backdateOrder(t.db, o.id, 310_000);
          const up = (o.direction === 'up') === a.win;
          await recordTick(t.db, 'ETHUSDT', 300_000, acceptedMs + 50);
          await recordTick(t.db, 'ETHUSDT', up ? 300_100 : 299_900, expiresMs - 50);
        }
        await recordTick(t.db, 'ETHUSDT', 300_000, Date.now() + 5);
        await stoppedWorker(t.db, api);
        if (rows.length) note(`settle ${a.mode} ${rows.length} orders`);
        const open = await t.db.query(
          "SELECT 1 FROM orders WHERE status = 'open' AND mode = $1 AND expires_at <= now()",
          [a.mode],
        );
        expect(open.rowCount).toBe(0);
        return;
      }
      case 'reset': {
        const res = await api.http.post('/api/practice/reset').set(users[a.who]!.auth);
        // 429: past the reset throttle (three at once, then one every 10 s); nothing changes.
        expect([200, 409, 429]).toContain(res.status);
        note(`reset ${res.status}`);
        if (res.status === 409) expect(res.body.error.code).toBe('PRACTICE_ORDERS_OPEN');
        if (res.status === 429) expect(res.body.error.code).toBe('RATE_LIMITED');
        return;
      }
      case 'savings': {
        const res = await api.http
          .post(`/api/savings/${a.way}`)
          .set(users[a.who]!.auth)
          .send({ amount: a.amount, mode: a.mode });
        note(`savings ${a.way} ${a.mode} ${res.status}`);
        if (a.mode === 'practice') return refusedAsPractice(res);
        expect([201, 409], JSON.stringify(res.body)).toContain(res.status);
        return;
      }
      case 'withdraw': {
        const u = users[a.who]!;
        const res = await api.http.post('/api/withdrawals').set(u.auth).send({
          accountId: u.accountId,
          amount: a.amount,
          tradePassword: TRADE_PASSWORD,
          mode: a.mode,
        });
        note(`withdraw ${a.mode} ${res.status}`);
        if (a.mode === 'practice') return refusedAsPractice(res);
        expect([201, 409], JSON.stringify(res.body)).toContain(res.status);
        return;
      }
    }
  }

  it('keeps the ledger whole per mode and real balances untouched by practice operations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 12 }), async (actions) => {
        // Each sequence ends with every order settled, so none is left to the next one.
        const closing: Action[] = [
          { t: 'settle', mode: 'practice', win: true },
          { t: 'settle', mode: 'real', win: false },
        ];
        for (const a of [...actions, ...closing]) {
          const before = await balances();
          await step(a);
          const after = await balances();
          const other: TradeMode = modeOf(a) === 'practice' ? 'real' : 'practice';
          expect(after[other], `${JSON.stringify(a)} moved ${other} money`).toEqual(before[other]);
          expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
        }
      }),
      {
        numRuns: kind === 'pglite' ? 25 : 15,
        // First, while the funded user still holds real money (random runs may spend it all on
        // withdrawals and losses): an order of each mode taken, then settled by the closing steps.
        examples: [
          [
            [
              { t: 'order', who: 0, mode: 'real', amount: 1000, direction: 'up' },
              { t: 'order', who: 0, mode: 'practice', amount: 1000, direction: 'down' },
            ],
          ],
        ],
      },
    );
    console.log(
      `practice model on ${kind}:`,
      Object.fromEntries([...tally.entries()].sort(([a], [b]) => a.localeCompare(b))),
    );
    // The runs reached the interesting states: orders of both modes taken and settled.
    for (const what of ['order real 201', 'order practice 201'])
      expect(tally.get(what) ?? 0, what).toBeGreaterThan(0);
  }, 300_000);
});
