import type { Queryable } from '@infra/db';
import { pgErrorCode } from '@infra/db/db';
import { conflict } from '@server/platform/http/errors';

export type UserAccountKind =
  | 'available'
  | 'in_orders'
  | 'withdraw_hold'
  | 'savings_pending'
  | 'savings_confirmed'
  | 'practice_available'
  | 'practice_in_orders';
export type HouseAccountKind =
  'house_trading' | 'house_interest' | 'world' | 'house_practice' | 'house_fees';
export type AccountRef = { user: number; kind: UserAccountKind } | { house: HouseAccountKind };

export const userAccountKinds: readonly UserAccountKind[] = [
  'available',
  'in_orders',
  'withdraw_hold',
  'savings_pending',
  'savings_confirmed',
  'practice_available',
  'practice_in_orders',
];

/**
 * Real money, or practice money that can never become real (issue 19): each account is of one
 * mode, and a transfer moves money of one mode only (the database refuses any other).
 */
export type MoneyMode = 'real' | 'practice';
const practiceKinds = new Set<string>([
  'practice_available',
  'practice_in_orders',
  'house_practice',
]);
export const modeOfAccount = (a: AccountRef): MoneyMode =>
  practiceKinds.has('user' in a ? a.kind : a.house) ? 'practice' : 'real';

/** The accounts of an order of each mode: where the stake waits, where payouts go, the house. */
export const orderAccounts = {
  real: { available: 'available', inOrders: 'in_orders', house: 'house_trading' },
  practice: {
    available: 'practice_available',
    inOrders: 'practice_in_orders',
    house: 'house_practice',
  },
} as const satisfies Record<
  MoneyMode,
  { available: UserAccountKind; inOrders: UserAccountKind; house: HouseAccountKind }
>;

export type TransferKind =
  | 'deposit'
  | 'withdraw_hold'
  | 'withdraw_release'
  | 'withdraw_paid'
  | 'order_stake'
  | 'order_payout'
  | 'order_refund'
  | 'order_loss'
  | 'order_sale'
  | 'savings_in'
  | 'savings_out'
  | 'savings_confirm'
  | 'savings_income'
  | 'practice_open'
  | 'practice_reset';

export interface Leg {
  account: AccountRef;
  amount: number;
}

export interface TransferResult {
  transferId: number;
}

const refKey = (a: AccountRef) => ('user' in a ? `u:${a.user}:${a.kind}` : `h:${a.house}`);

/**
 * Locks the given accounts in id order (so concurrent callers never deadlock) and reads their
 * balances, in one query; a user's accounts are created on their first use.
 */
export async function lockAccounts(
  tx: Queryable,
  refs: readonly AccountRef[],
): Promise<{
  ids: Map<string, number>;
  balances: Map<number, { balance: number; user: boolean }>;
}> {
  const wanted = new Map(refs.map((r) => [refKey(r), r]));
  const pairs = [...wanted.values()].flatMap((r) => ('user' in r ? [r] : []));
  const house = [...wanted.values()].flatMap((r) => ('house' in r ? [r.house] : []));
  const lock = () =>
    tx.query<{ id: number; owner_id: number | null; kind: string; balance: number }>(
      // Each account found through its unique index (an OR of the two kinds, as before, read
      // the whole table on every money movement), then locked in id order.
      `SELECT id, owner_id, kind, balance FROM ledger_accounts
       WHERE id = ANY(ARRAY(
         SELECT a.id FROM unnest($1::bigint[], $2::text[]) AS w(owner_id, kind)
         JOIN ledger_accounts a ON a.owner_id = w.owner_id AND a.kind = w.kind AND a.owner_id IS NOT NULL
         UNION ALL
         SELECT id FROM ledger_accounts WHERE owner_id IS NULL AND kind = ANY($3::text[])))
       ORDER BY id FOR UPDATE`,
      [pairs.map((p) => p.user), pairs.map((p) => p.kind), house],
    );
  let { rows } = await lock();
  if (rows.length < wanted.size) {
    const users = [...new Set(pairs.map((p) => p.user))];
    await tx.query(
      `INSERT INTO ledger_accounts (owner_id, kind) SELECT u, k FROM unnest($1::bigint[]) u, unnest($2::text[]) k
       ON CONFLICT (owner_id, kind) WHERE owner_id IS NOT NULL DO NOTHING`,
      [users, userAccountKinds],
    );
    ({ rows } = await lock());
  }
  const ids = new Map(
    rows.map((r) => [r.owner_id === null ? `h:${r.kind}` : `u:${r.owner_id}:${r.kind}`, r.id]),
  );
  return {
    ids,
    balances: new Map(rows.map((r) => [r.id, { balance: r.balance, user: r.owner_id !== null }])),
  };
}

export interface TransferSpec {
  kind: TransferKind;
  userId: number | null;
  ref?: string;
  legs: readonly Leg[];
}

/**
 * Moves money for many transfers in one go, inside the caller's transaction, in one statement
 * whatever their count (the database's `ledger_transfer`, migration 0020): accounts locked in id
 * order (so concurrent callers never deadlock), balances carried forward in order, every entry
 * written with its balance after. Each transfer's legs must sum to zero and be of one mode
 * (checked here first); a user account that would go below zero refuses the whole call with 409
 * INSUFFICIENT_BALANCE (the table's CHECK backs this up).
 */
export async function transferMany(
  tx: Queryable,
  transfers: readonly TransferSpec[],
): Promise<TransferResult[]> {
  for (const t of transfers) {
    if (t.legs.some((l) => !Number.isSafeInteger(l.amount)))
      throw new RangeError('ledger amounts are integer minor units');
    if (t.legs.reduce((s, l) => s + l.amount, 0) !== 0)
      throw new RangeError(`transfer ${t.kind} does not sum to zero`);
    if (new Set(t.legs.map((l) => modeOfAccount(l.account))).size > 1)
      throw new RangeError(`transfer ${t.kind} mixes practice and real money`);
  }
  if (!transfers.length) return [];
  const legs = transfers.flatMap((t, i) => t.legs.map((l) => ({ ord: i + 1, ...l })));
  try {
    const { rows } = await tx.query<{ ord: number; transfer_id: number }>(
      `SELECT ord, transfer_id FROM ledger_transfer(${transferParams.sql(1)}) ORDER BY ord`,
      transferParams.values(transfers, legs),
      { prepare: true },
    );
    return rows.map((r) => ({ transferId: Number(r.transfer_id) }));
  } catch (err) {
    refuseOverdraft(err);
  }
}

/** Rethrows a database error, an overdraft (SQLSTATE 23514) as 409 INSUFFICIENT_BALANCE. */
export function refuseOverdraft(err: unknown): never {
  if (pgErrorCode(err) === '23514')
    throw conflict('INSUFFICIENT_BALANCE', 'Insufficient balance', 'amount');
  throw err;
}

/**
 * The nine array parameters of the database's `ledger_transfer` (migration 0020), from `from`
 * on: transfers (kind, user, ref, mode), their legs (transfer ordinal, owner or NULL for a house
 * account, account kind, amount), and the kinds of account a user is given on first use.
 */
export const transferParams = {
  sql: (from: number) =>
    `$${from}::text[], $${from + 1}::bigint[], $${from + 2}::text[], $${from + 3}::text[], ` +
    `$${from + 4}::int[], $${from + 5}::bigint[], $${from + 6}::text[], $${from + 7}::bigint[], ` +
    `$${from + 8}::text[]`,
  values: (
    transfers: readonly TransferSpec[],
    legs: readonly (Leg & { ord: number })[],
  ): unknown[] => [
    transfers.map((t) => t.kind),
    transfers.map((t) => t.userId),
    transfers.map((t) => t.ref ?? null),
    transfers.map((t) => (t.legs[0] ? modeOfAccount(t.legs[0].account) : 'real')),
    legs.map((l) => l.ord),
    legs.map((l) => ('user' in l.account ? l.account.user : null)),
    legs.map((l) => ('user' in l.account ? l.account.kind : l.account.house)),
    legs.map((l) => l.amount),
    userAccountKinds,
  ],
};

/** One transfer: see transferMany. */
export async function transfer(tx: Queryable, t: TransferSpec): Promise<TransferResult> {
  return (await transferMany(tx, [t]))[0]!;
}

type Balances = Record<UserAccountKind, number>;
const noBalances = () => Object.fromEntries(userAccountKinds.map((k) => [k, 0])) as Balances;

/** A user's balances by kind (zero for accounts not created yet). */
export async function userBalances(db: Queryable, userId: number): Promise<Balances> {
  return (await balancesOf(db, [userId])).get(userId)!;
}

/** Several users' balances by kind, in one query. */
export async function balancesOf(
  db: Queryable,
  userIds: readonly number[],
): Promise<Map<number, Balances>> {
  const { rows } = await db.query<{ owner_id: number; kind: UserAccountKind; balance: number }>(
    'SELECT owner_id, kind, balance FROM ledger_accounts WHERE owner_id = ANY($1::bigint[])',
    [userIds],
  );
  const out = new Map(userIds.map((id) => [id, noBalances()]));
  for (const r of rows) out.get(Number(r.owner_id))![r.kind] = r.balance;
  return out;
}

/**
 * The ledger invariant: every balance equals the sum of its entries, every transfer sums to zero
 * (so the money of each mode sums to zero on its own), every entry's balance_after is its
 * account's running total, every entry's account is of its transfer's mode, no user balance is
 * negative.
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
  const mixed = await db.query<{ id: number }>(
    `SELECT e.transfer_id AS id FROM entries e
     JOIN transfers t ON t.id = e.transfer_id JOIN ledger_accounts a ON a.id = e.account_id
     WHERE a.mode <> t.mode LIMIT 20`,
  );
  for (const r of mixed.rows) problems.push(`transfer ${r.id} mixes practice and real money`);
  const modes = await db.query<{ mode: string; total: string }>(
    'SELECT mode, sum(balance)::text AS total FROM ledger_accounts GROUP BY mode HAVING sum(balance) <> 0',
  );
  for (const r of modes.rows) problems.push(`${r.mode} balances sum to ${r.total}`);
  const negative = await db.query<{ id: number }>(
    'SELECT id FROM ledger_accounts WHERE owner_id IS NOT NULL AND balance < 0',
  );
  for (const r of negative.rows) problems.push(`user account ${r.id} is negative`);
  return { ok: problems.length === 0, problems };
}
