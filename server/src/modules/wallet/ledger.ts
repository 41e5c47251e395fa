import type { Queryable } from '@server/platform/db';
import { pgErrorCode } from '@server/platform/db/db';
import { conflict } from '@server/platform/http/errors';

export type UserAccountKind =
  'available' | 'in_orders' | 'withdraw_hold' | 'savings_pending' | 'savings_confirmed';
export type HouseAccountKind = 'house_trading' | 'house_interest' | 'world';
export type AccountRef = { user: number; kind: UserAccountKind } | { house: HouseAccountKind };

export const userAccountKinds: readonly UserAccountKind[] = [
  'available',
  'in_orders',
  'withdraw_hold',
  'savings_pending',
  'savings_confirmed',
];

export type TransferKind =
  | 'deposit'
  | 'withdraw_hold'
  | 'withdraw_release'
  | 'withdraw_paid'
  | 'order_stake'
  | 'order_payout'
  | 'order_refund'
  | 'order_loss'
  | 'savings_in'
  | 'savings_out'
  | 'savings_confirm'
  | 'savings_income';

export interface Leg {
  account: AccountRef;
  amount: number;
}

export interface TransferResult {
  transferId: number;
  /** Balance after the transfer, per account id. */
  balances: Map<number, number>;
}

const refKey = (a: AccountRef) => ('user' in a ? `u:${a.user}:${a.kind}` : `h:${a.house}`);

/** Account ids for refs, creating a user's accounts on first use. */
async function resolveAccounts(
  tx: Queryable,
  refs: readonly AccountRef[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const users = [...new Set(refs.flatMap((r) => ('user' in r ? [r.user] : [])))];
  for (const user of users) {
    await tx.query(
      `INSERT INTO ledger_accounts (owner_id, kind) SELECT $1, unnest($2::text[])
       ON CONFLICT (owner_id, kind) WHERE owner_id IS NOT NULL DO NOTHING`,
      [user, userAccountKinds],
    );
  }
  const { rows } = await tx.query<{ id: number; owner_id: number | null; kind: string }>(
    'SELECT id, owner_id, kind FROM ledger_accounts WHERE owner_id = ANY($1::bigint[]) OR owner_id IS NULL',
    [users],
  );
  for (const r of rows)
    out.set(r.owner_id === null ? `h:${r.kind}` : `u:${r.owner_id}:${r.kind}`, r.id);
  return out;
}

/**
 * Moves money: one transfer row and its entries, inside the caller's transaction. The legs must
 * sum to zero. Accounts are locked in id order (so concurrent transfers never deadlock on each
 * other) and a user account that would go negative refuses the whole transfer with
 * 409 INSUFFICIENT_BALANCE.
 */
export async function transfer(
  tx: Queryable,
  t: { kind: TransferKind; userId: number | null; ref?: string; legs: readonly Leg[] },
): Promise<TransferResult> {
  const legs = t.legs.filter((l) => l.amount !== 0);
  if (legs.some((l) => !Number.isSafeInteger(l.amount)))
    throw new RangeError('ledger amounts are integer minor units');
  if (legs.reduce((s, l) => s + l.amount, 0) !== 0)
    throw new RangeError(`transfer ${t.kind} does not sum to zero`);
  const ids = await resolveAccounts(
    tx,
    legs.map((l) => l.account),
  );
  const byAccount = new Map<number, number>();
  for (const l of legs) {
    const id = ids.get(refKey(l.account))!;
    byAccount.set(id, (byAccount.get(id) ?? 0) + l.amount);
  }
  const ordered = [...byAccount.entries()].filter(([, a]) => a !== 0).sort(([a], [b]) => a - b);
  await tx.query(
    'SELECT id FROM ledger_accounts WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
    [ordered.map(([id]) => id)],
  );

  const { rows: tr } = await tx.query<{ id: number }>(
    'INSERT INTO transfers (kind, user_id, ref) VALUES ($1, $2, $3) RETURNING id',
    [t.kind, t.userId, t.ref ?? null],
  );
  const transferId = tr[0]!.id;
  const balances = new Map<number, number>();
  for (const [accountId, amount] of ordered) {
    let balance: number;
    try {
      const { rows } = await tx.query<{ balance: number }>(
        'UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1 RETURNING balance',
        [accountId, amount],
      );
      balance = rows[0]!.balance;
    } catch (err) {
      if (pgErrorCode(err) === '23514')
        throw conflict('INSUFFICIENT_BALANCE', 'Insufficient balance', 'amount');
      throw err;
    }
    balances.set(accountId, balance);
    await tx.query(
      'INSERT INTO entries (transfer_id, account_id, amount, balance_after) VALUES ($1, $2, $3, $4)',
      [transferId, accountId, amount, balance],
    );
  }
  return { transferId, balances };
}

/** A user's balances by kind (zero for accounts not created yet). */
export async function userBalances(
  db: Queryable,
  userId: number,
): Promise<Record<UserAccountKind, number>> {
  const { rows } = await db.query<{ kind: UserAccountKind; balance: number }>(
    'SELECT kind, balance FROM ledger_accounts WHERE owner_id = $1',
    [userId],
  );
  const out = Object.fromEntries(userAccountKinds.map((k) => [k, 0])) as Record<
    UserAccountKind,
    number
  >;
  for (const r of rows) out[r.kind] = r.balance;
  return out;
}

/**
 * The ledger invariant: every balance equals the sum of its entries, every transfer sums to zero,
 * every entry's balance_after is its account's running total, no user balance is negative.
 */
export async function checkLedger(db: Queryable): Promise<{ ok: boolean; problems: string[] }> {
  const problems: string[] = [];
  const unbalanced = await db.query<{ id: number; total: string }>(
    'SELECT transfer_id AS id, sum(amount)::text AS total FROM entries GROUP BY transfer_id HAVING sum(amount) <> 0',
  );
  for (const r of unbalanced.rows) problems.push(`transfer ${r.id} sums to ${r.total}`);
  const drift = await db.query<{ id: number; balance: number; total: string }>(
    `SELECT a.id, a.balance, coalesce(sum(e.amount), 0)::text AS total
     FROM ledger_accounts a LEFT JOIN entries e ON e.account_id = a.id
     GROUP BY a.id, a.balance HAVING a.balance <> coalesce(sum(e.amount), 0)`,
  );
  for (const r of drift.rows)
    problems.push(`account ${r.id} balance ${r.balance} but entries sum to ${r.total}`);
  const running = await db.query<{ id: number }>(
    `SELECT id FROM (
       SELECT id, balance_after, sum(amount) OVER (PARTITION BY account_id ORDER BY id) AS running FROM entries
     ) x WHERE balance_after <> running LIMIT 20`,
  );
  for (const r of running.rows)
    problems.push(`entry ${r.id} balance_after is not its running total`);
  const empty = await db.query<{ id: number }>(
    'SELECT t.id FROM transfers t WHERE NOT EXISTS (SELECT 1 FROM entries e WHERE e.transfer_id = t.id) LIMIT 20',
  );
  for (const r of empty.rows) problems.push(`transfer ${r.id} has no entries`);
  const negative = await db.query<{ id: number }>(
    'SELECT id FROM ledger_accounts WHERE owner_id IS NOT NULL AND balance < 0',
  );
  for (const r of negative.rows) problems.push(`user account ${r.id} is negative`);
  return { ok: problems.length === 0, problems };
}
