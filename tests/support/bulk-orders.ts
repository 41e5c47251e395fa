import { randomBytes } from 'node:crypto';
import type { Db } from '@infra/db';
import { insertOrdersWithStakes } from '@server/modules/orders/orders.repo';
import { transfer } from '@server/modules/ledger/ledger';
import { openPractice } from '@server/modules/wallet/practice';
import { insertTicks } from '@sim/tape.repo';

/** Users straight into the table (no argon2: these never log in), each funded with `funds`. */
export async function bulkUsers(db: Db, count: number, funds: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const tag = randomBytes(5).toString('hex');
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO users (account, phone, nickname, password_hash, trade_password_hash, invite_code, invited_with)
       VALUES ($1, '+10000000', $1, 'x', 'x', $2, 'WELCOME') RETURNING id`,
      [`bulk_${tag}`, tag.toUpperCase()],
    );
    const id = rows[0]!.id;
    await db.transaction((tx) =>
      transfer(tx, {
        kind: 'deposit',
        userId: id,
        ref: `bulk:${id}`,
        legs: [
          { account: { house: 'world' }, amount: -funds },
          { account: { user: id, kind: 'available' }, amount: funds },
        ],
      }),
    );
    ids.push(id);
  }
  return ids;
}

/** Opens each user's practice balance with `balance` (as the first practice trade does). */
export async function openPracticeFor(db: Db, users: number[], balance: number): Promise<void> {
  for (const id of users) await db.transaction((tx) => openPractice(tx, id, balance));
}

/**
 * `count` open orders spread over `users`, staked through the ledger as placement does, accepted
 * now and without an entry: a settlement worker gives each its first tick after acceptance.
 * Placement's own statement, `chunk` orders at a time (a hundred thousand in a few dozen
 * statements with a chunk of 5 000).
 */
export async function bulkOrders(
  db: Db,
  users: number[],
  count: number,
  productId = 'BTCUSDT',
  chunk = 100,
): Promise<void> {
  for (let i = 0; i < count; i += chunk) {
    await insertOrdersWithStakes(
      db,
      Array.from({ length: Math.min(count, i + chunk) - i }, (_, k) => {
        const j = i + k;
        return {
          userId: users[j % users.length]!,
          mode: 'real' as const,
          productId,
          direction: j % 2 ? 'up' : 'down',
          amount: 1000 + (j % 7) * 100,
          duration: 30,
          rateBp: 8000,
        };
      }),
    );
  }
}

/**
 * Gives every open order without an entry the first tick after its acceptance (entry-rule.ts),
 * in one statement: a test of settlement alone starts from orders already entered, so the workers
 * it watches do nothing but settle. Answers how many orders it entered.
 */
export async function enterAtFirstTick(db: Db): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH e AS (
       UPDATE orders o SET entry_seq = f.seq, entry_ts = f.ts, entry_price = f.price
       FROM orders w
       CROSS JOIN LATERAL (
         SELECT t.seq, t.ts, t.price FROM ticks t
         WHERE t.product_id = w.product_id AND t.ts > w.accepted_ms
         ORDER BY t.ts, t.seq LIMIT 1
       ) f
       WHERE o.id = w.id AND w.status = 'open' AND w.entry_seq IS NULL
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM e`,
  );
  return rows[0]!.n;
}

/** Moves every open order's expiry to the start of the second `inSeconds` from the database's now. */
export async function expireAllAt(db: Db, inSeconds: number): Promise<void> {
  await db.query(
    `UPDATE orders SET expires_at = date_trunc('second', now()) + make_interval(secs => $1),
            expires_ms = floor(extract(epoch FROM date_trunc('second', now()) + make_interval(secs => $1)) * 1000)::bigint
     WHERE status = 'open'`,
    [inSeconds],
  );
}

/** A recorded tape around now: a tick every `everyMs` from `fromMs` before now to `toMs` after. */
export async function recordTape(
  db: Db,
  { productId = 'BTCUSDT', fromMs = 10_000, toMs = 10_000, everyMs = 100, firstSeq = 1 } = {},
): Promise<void> {
  const start = Date.now() - fromMs;
  const rows = [];
  let price = 6_700_000;
  for (let ts = start, seq = firstSeq; ts <= Date.now() + toMs; ts += everyMs, seq++) {
    price += Math.round((Math.random() - 0.5) * 400);
    rows.push({ productId, seq, ts, price, qty: 1 });
  }
  await insertTicks(db, rows);
}

/** The exactly-once facts, read from the database. */
export async function settlementFacts(db: Db) {
  const q = async (sql: string) => (await db.query<{ n: number }>(sql)).rows[0]!.n;
  return {
    open: await q("SELECT count(*)::int AS n FROM orders WHERE status = 'open'"),
    settled: await q("SELECT count(*)::int AS n FROM orders WHERE status <> 'open'"),
    settleTransfers: await q(
      "SELECT count(*)::int AS n FROM transfers WHERE kind IN ('order_payout', 'order_refund', 'order_loss')",
    ),
    // A settled order without its transfer, or an open one with one: half-done work.
    halfDone: await q(`SELECT count(*)::int AS n FROM orders o
      WHERE (o.status = 'open') = EXISTS (SELECT 1 FROM transfers t WHERE t.ref = 'settle:' || o.id
        -- the kinds of the unique settlement index, so each order is one lookup in it
        AND t.kind IN ('order_payout', 'order_refund', 'order_loss', 'order_sale'))`),
    // An entry that is not the first tick after acceptance, or a result without an entry.
    wrongEntry: await q(`SELECT count(*)::int AS n FROM orders o
      WHERE (o.entry_seq IS NULL AND o.status NOT IN ('open', 'void'))
         OR (o.entry_seq IS NOT NULL AND o.entry_seq IS DISTINCT FROM (SELECT t.seq FROM ticks t
              WHERE t.product_id = o.product_id AND t.ts > o.accepted_ms ORDER BY t.ts, t.seq LIMIT 1))`),
    // Stakes held must equal the open orders' stakes, user by user.
    heldMismatch: await q(`SELECT count(*)::int AS n FROM ledger_accounts a
      WHERE a.kind = 'in_orders' AND a.balance <> coalesce((SELECT sum(amount) FROM orders o WHERE o.user_id = a.owner_id AND o.status = 'open'), 0)`),
  };
}
