import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '@infra/db';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { bulkUsers } from '@tests/support/bulk-orders';
import { checkLedger, userBalances } from '../ledger/ledger';
import { createPlacementQueue, type Placement } from './placement-queue';
import { presentOrder } from './orders.service';

describe.each(dbDrivers())('placements with group commit on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(kind);
  });
  afterAll(async () => {
    await t.drop();
  });

  /**
   * The database, counting the statements that write orders. With `slowClaim`, the first claim of
   * that key by a request alone waits 100 ms before it is sent: a repeat that did not wait for it
   * would claim the key first (its own claim is sent at once).
   */
  const counted = (slowClaim?: string) => {
    const seen = { orderStatements: 0 };
    let slowed = false;
    const count =
      (q: Queryable['query']): Queryable['query'] =>
      async (sql, params, options) => {
        if (sql.includes('INSERT INTO orders')) seen.orderStatements++;
        const claim = sql.startsWith('INSERT INTO idempotency_keys (user_id, key, request_hash)');
        if (claim && params?.[1] === slowClaim && !slowed) {
          slowed = true;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return q(sql, params, options);
      };
    const db: Db = {
      ...t.db,
      query: count(t.db.query),
      transaction: (fn, opts) =>
        t.db.transaction((tx) => fn({ ...tx, query: count(tx.query) }), opts),
    };
    return { db, seen };
  };
  /** A queue that writes one group at a time, so those placed together wait and go as one. */
  const queue = (db: Db) =>
    createPlacementQueue({ db, present: (row) => presentOrder(row, 2), maxInFlight: 1 });
  const placement = (userId: number, amount = 10_000, key?: string): Placement => {
    const request = {
      productId: 'BTCUSDT',
      direction: 'up' as const,
      amount,
      duration: 30,
      mode: 'real' as const,
    };
    return {
      order: {
        userId,
        mode: 'real',
        productId: 'BTCUSDT',
        direction: 'up',
        amount,
        duration: 30,
        rateBp: 8000,
      },
      key,
      request,
    };
  };
  /** The end of the event loop's current turn, where a group starts. */
  const turn = () => new Promise((r) => setImmediate(r));
  /** Each order's stake transfer: its user and the amount that left their available balance. */
  const stakesOf = async (ids: string[]) =>
    (
      await t.db.query<{ ref: string; user_id: number; amount: number }>(
        `SELECT t.ref, t.user_id, -e.amount AS amount FROM transfers t
         JOIN entries e ON e.transfer_id = t.id
         JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'available'
         WHERE t.kind = 'order_stake' AND t.ref = ANY($1::text[]) ORDER BY t.ref`,
        [ids.map((id) => `order:${id}`)],
      )
    ).rows;

  it('writes the placements that arrive while one is under way in one statement, each with its own order and stake', async () => {
    const [a, b] = await bulkUsers(t.db, 2, 100_000);
    const { db, seen } = counted();
    const place = queue(db);
    const first = place(placement(a!, 10_000));
    await turn(); // the first is being written: the others wait for it
    const answers = await Promise.all([
      first,
      place(placement(a!, 20_000)),
      place(placement(b!, 30_000)),
      place(placement(a!, 40_000)),
      place(placement(b!, 50_000)),
    ]);
    // The first went alone; the four that came while it was written went together.
    expect(seen.orderStatements).toBe(2);
    expect(answers.map((x) => [x.status, x.body.amount, x.replayed])).toEqual([
      [201, 10_000, false],
      [201, 20_000, false],
      [201, 30_000, false],
      [201, 40_000, false],
      [201, 50_000, false],
    ]);
    const ids = answers.map((x) => x.body.id);
    expect(new Set(ids).size).toBe(5);
    const users = [a, a, b, a, b];
    expect(await stakesOf(ids)).toEqual(
      answers
        .map((x, i) => ({ ref: `order:${x.body.id}`, user_id: users[i], amount: x.body.amount }))
        .sort((p, q) => p.ref.localeCompare(q.ref)),
    );
    expect(await userBalances(t.db, a!)).toMatchObject({ available: 30_000, in_orders: 70_000 });
    expect(await userBalances(t.db, b!)).toMatchObject({ available: 20_000, in_orders: 80_000 });
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });

  it('costs an overdraft only its own order: the group is written again one by one', async () => {
    const [rich] = await bulkUsers(t.db, 1, 100_000);
    const [poor] = await bulkUsers(t.db, 1, 10_000);
    const { db, seen } = counted();
    const place = queue(db);
    const first = place(placement(rich!, 10_000));
    await turn();
    const answers = await Promise.allSettled([
      first,
      place(placement(poor!, 10_000)),
      place(placement(poor!, 10_000)),
      place(placement(rich!, 10_000)),
    ]);
    const outcome = (x: (typeof answers)[number]) =>
      x.status === 'fulfilled' ? x.value.status : (x.reason as { code: string }).code;
    // The rich user's two are placed; of the poor user's two (written again at once, each alone),
    // exactly one.
    expect([outcome(answers[0]), outcome(answers[3])]).toEqual([201, 201]);
    expect([outcome(answers[1]), outcome(answers[2])].sort()).toEqual([
      201,
      'INSUFFICIENT_BALANCE',
    ]);
    // Alone, then a group of three that failed on the overdraft, then each of the three alone.
    expect(seen.orderStatements).toBe(5);
    expect(await userBalances(t.db, rich!)).toMatchObject({ available: 80_000, in_orders: 20_000 });
  });

  it('keys: a new one is recorded with its order; a known one, or one sent twice in a group, replays; another body is refused', async () => {
    const [u] = await bulkUsers(t.db, 1, 100_000);
    const { db, seen } = counted('k-b');
    const place = queue(db);
    const first = await place(placement(u!, 10_000, 'k-a'));
    const under = place(placement(u!, 5_000));
    await turn();
    const answers = await Promise.allSettled([
      place(placement(u!, 10_000, 'k-a')),
      place(placement(u!, 20_000, 'k-b')),
      place(placement(u!, 20_000, 'k-b')),
      place(placement(u!, 30_000)),
      place(placement(u!, 40_000, 'k-a')),
    ]);
    const [again, b1, b2, plain, other] = answers;
    expect(again).toMatchObject({ status: 'fulfilled', value: { ...first, replayed: true } });
    expect(b1).toMatchObject({ status: 'fulfilled', value: { status: 201, replayed: false } });
    expect(b2).toEqual({
      status: 'fulfilled',
      value: { ...((b1 as PromiseFulfilledResult<unknown>).value as object), replayed: true },
    });
    expect(plain).toMatchObject({ status: 'fulfilled', value: { status: 201, replayed: false } });
    expect(other).toMatchObject({ status: 'rejected', reason: { code: 'IDEMPOTENCY_MISMATCH' } });
    await under;
    // 'k-a' (its key in the same statement); then one unkeyed; then, while that was written, one
    // group that failed on the known 'k-a' and wrote nothing; then each of its placements alone:
    // 'k-b' and the unkeyed one wrote an order each, the repeats none.
    expect(seen.orderStatements).toBe(5);
    expect(await userBalances(t.db, u!)).toMatchObject({ available: 35_000, in_orders: 65_000 });
    const stored = await t.db.query<{ key: string; status: number; body: unknown; order: string }>(
      `SELECT key, status, body, order_id::text AS order FROM idempotency_keys
       WHERE user_id = $1 ORDER BY key`,
      [u],
    );
    // A key written with its group's statement names its order; one written alone stores its answer.
    expect(stored.rows).toEqual([
      { key: 'k-a', status: 201, body: null, order: first.body.id },
      {
        key: 'k-b',
        status: 201,
        body: (b1 as PromiseFulfilledResult<{ body: unknown }>).value.body,
        order: null,
      },
    ]);
    expect(await checkLedger(t.db)).toEqual({ ok: true, problems: [] });
  });

  it('keys: a repeat replays the placement’s answer (open, no entry), whatever became of the order since', async () => {
    const [u] = await bulkUsers(t.db, 1, 100_000);
    const place = queue(t.db);
    // Two at once: one group, one statement, both keys recorded with their orders.
    const [a, b] = await Promise.all([
      place(placement(u!, 10_000, 'k-settled')),
      place(placement(u!, 10_000, 'k-sold')),
    ]);
    // What became of them: one entered and won, the other sold.
    await t.db.query(
      `UPDATE orders SET entry_seq = 1, entry_ts = accepted_ms + 100, entry_price = 100,
         exit_seq = 9, exit_ts = expires_ms, exit_price = 120, status = 'won', payout = 18000,
         settled_at = now() WHERE id = $1`,
      [a.body.id],
    );
    await t.db.query(
      `UPDATE orders SET entry_seq = 1, entry_ts = accepted_ms + 100, entry_price = 100,
         exit_seq = 5, exit_ts = accepted_ms + 5000, exit_price = 110, status = 'sold',
         payout = 12000, settled_at = now(), sell_requested_ms = accepted_ms + 4900,
         sell_annual_vol = 0.5, sell_spread_bp = 500 WHERE id = $1`,
      [b.body.id],
    );
    expect(await place(placement(u!, 10_000, 'k-settled'))).toEqual({ ...a, replayed: true });
    expect(await place(placement(u!, 10_000, 'k-sold'))).toEqual({ ...b, replayed: true });
    expect(a.body).toMatchObject({ status: 'open', entry: null, payout: null, sale: null });
  });
});
