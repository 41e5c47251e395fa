import type { CoinNetwork, WithdrawalStatus } from '@shared/wallet/model';
import type { Queryable } from '@infra/db';
import type { PageRequest } from '@server/platform/paging';

export interface WithdrawalAccountRow {
  id: number;
  user_id: number;
  type: 'bank' | 'coin';
  holder_name: string | null;
  nationality: string | null;
  bank_name: string | null;
  branch: string | null;
  card_number: string | null;
  bank_address: string | null;
  network: CoinNetwork | null;
  address: string | null;
  created_at: Date;
  /** Withdrawals to it are accepted from this instant (the new-account hold). */
  usable_at: Date;
}

/** A withdrawal with its destination account (columns prefixed `a_`). */
export interface WithdrawalRow {
  id: number;
  user_id: number;
  account_id: number;
  amount: number;
  fee: number;
  status: WithdrawalStatus;
  reason: string | null;
  created_at: Date;
  reviewed_at: Date | null;
  user_account?: string;
  account: WithdrawalAccountRow;
}

const accountColumns =
  'a.id, a.user_id, a.type, a.holder_name, a.nationality, a.bank_name, a.branch, a.card_number, a.bank_address, a.network, a.address, a.created_at, a.usable_at';

/**
 * Inserts a bound account; the unique (user_id, type) index refuses a second of one type (23505).
 * Both its times come from the caller's one reading of the platform clock, so the hold between them
 * is exactly the configured length (the database's now() is a little later, and not the platform's).
 */
export async function insertWithdrawalAccount(
  db: Queryable,
  a: Omit<WithdrawalAccountRow, 'id'>,
): Promise<WithdrawalAccountRow> {
  const { rows } = await db.query<WithdrawalAccountRow>(
    `INSERT INTO withdrawal_accounts AS a (user_id, type, holder_name, nationality, bank_name, branch, card_number, bank_address, network, address, usable_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${accountColumns}`,
    [
      a.user_id,
      a.type,
      a.holder_name,
      a.nationality,
      a.bank_name,
      a.branch,
      a.card_number,
      a.bank_address,
      a.network,
      a.address,
      a.usable_at,
      a.created_at,
    ],
  );
  return rows[0]!;
}

export async function userWithdrawalAccounts(
  db: Queryable,
  userId: number,
): Promise<WithdrawalAccountRow[]> {
  const { rows } = await db.query<WithdrawalAccountRow>(
    `SELECT ${accountColumns} FROM withdrawal_accounts a WHERE a.user_id = $1 ORDER BY a.id`,
    [userId],
  );
  return rows;
}

/** One of the user's own accounts; another user's id reads as missing. */
export async function userWithdrawalAccount(
  db: Queryable,
  userId: number,
  id: number,
): Promise<WithdrawalAccountRow | null> {
  const { rows } = await db.query<WithdrawalAccountRow>(
    `SELECT ${accountColumns} FROM withdrawal_accounts a WHERE a.user_id = $1 AND a.id = $2`,
    [userId, id],
  );
  return rows[0] ?? null;
}

const withdrawalSelect = `SELECT w.id, w.user_id, w.account_id, w.amount, w.fee, w.status, w.reason, w.created_at,
  w.reviewed_at, u.account AS user_account, to_jsonb(a) AS account
  FROM withdrawals w JOIN withdrawal_accounts a ON a.id = w.account_id JOIN users u ON u.id = w.user_id`;

/** jsonb brings times back as text; give them back their Date. */
const withDates = (r: WithdrawalRow): WithdrawalRow => ({
  ...r,
  account: {
    ...r.account,
    created_at: new Date(r.account.created_at),
    usable_at: new Date(r.account.usable_at),
  },
});

export async function insertWithdrawal(
  db: Queryable,
  w: { userId: number; accountId: number; amount: number; fee: number },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO withdrawals (user_id, account_id, amount, fee) VALUES ($1, $2, $3, $4) RETURNING id',
    [w.userId, w.accountId, w.amount, w.fee],
  );
  return rows[0]!.id;
}

export async function withdrawalById(db: Queryable, id: number): Promise<WithdrawalRow | null> {
  const { rows } = await db.query<WithdrawalRow>(`${withdrawalSelect} WHERE w.id = $1`, [id]);
  return rows[0] ? withDates(rows[0]) : null;
}

export async function listWithdrawals(
  db: Queryable,
  q: PageRequest & { userId?: number; status?: WithdrawalStatus },
): Promise<WithdrawalRow[]> {
  const { rows } = await db.query<WithdrawalRow>(
    `${withdrawalSelect}
     WHERE ($1::bigint IS NULL OR w.user_id = $1) AND ($2::text IS NULL OR w.status = $2)
       AND ($3::bigint IS NULL OR w.id < $3)
     ORDER BY w.id DESC LIMIT $4`,
    [q.userId ?? null, q.status ?? null, q.cursor ?? null, q.limit + 1],
  );
  return rows.map(withDates);
}

/**
 * Moves a pending withdrawal to its review outcome; `status = 'pending'` in the condition makes
 * concurrent reviews race for the row, so exactly one wins. Returns the user and amount, or null.
 */
export async function reviewWithdrawal(
  db: Queryable,
  id: number,
  to: 'success' | 'failed',
  reason: string | null,
): Promise<{ user_id: number; amount: number; fee: number } | null> {
  const { rows } = await db.query<{ user_id: number; amount: number; fee: number }>(
    `UPDATE withdrawals SET status = $2, reason = $3, reviewed_at = now()
     WHERE id = $1 AND status = 'pending' RETURNING user_id, amount, fee`,
    [id, to, reason],
  );
  return rows[0] ?? null;
}

export async function withdrawalStatus(
  db: Queryable,
  id: number,
): Promise<WithdrawalStatus | null> {
  const { rows } = await db.query<{ status: WithdrawalStatus }>(
    'SELECT status FROM withdrawals WHERE id = $1',
    [id],
  );
  return rows[0]?.status ?? null;
}

/** How many wait for an operator's review (the console's dashboard). */
/** Pending items, of one user when `userId` is given. */
export async function countPending(db: Queryable, userId?: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM withdrawals WHERE status = 'pending' AND ($1::bigint IS NULL OR user_id = $1)",
    [userId ?? null],
  );
  return rows[0]?.n ?? 0;
}

/** The name of the user's verified identity, or null (no identity check verified). */
export async function verifiedName(db: Queryable, userId: number): Promise<string | null> {
  const { rows } = await db.query<{ name: string }>(
    "SELECT name FROM kyc_submissions WHERE user_id = $1 AND status = 'verified' ORDER BY id DESC LIMIT 1",
    [userId],
  );
  return rows[0]?.name ?? null;
}
