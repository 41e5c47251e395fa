import type { Queryable } from '@infra/db';
import type { PageRequest } from '@server/platform/paging';

/** SQL of the savings balance. Days travel as 'YYYY-MM-DD' text; money as integer minor units. */

export interface DueAccount {
  userId: number;
  /** The first platform day whose cut-off is not applied yet. */
  nextDay: string;
}

export interface SavingsRecordRow {
  id: number;
  user_id: number;
  kind: 'in' | 'out' | 'income';
  amount: number;
  day: string;
  at_ms: number;
}

const recordColumns = 'id, user_id, kind, amount, day::text AS day, at_ms';

/** Opens the user's savings row on a first transfer in; a no-op when it exists. */
export async function openAccount(tx: Queryable, userId: number, day: string): Promise<void> {
  await tx.query(
    'INSERT INTO savings_accounts (user_id, next_day) VALUES ($1, $2::date) ON CONFLICT (user_id) DO NOTHING',
    [userId, day],
  );
}

/** Locks the user's savings row (waiting for any other movement of theirs); null when none. */
export async function lockAccount(tx: Queryable, userId: number): Promise<DueAccount | null> {
  const { rows } = await tx.query<{ next_day: string }>(
    'SELECT next_day::text AS next_day FROM savings_accounts WHERE user_id = $1 FOR UPDATE',
    [userId],
  );
  return rows[0] ? { userId, nextDay: rows[0].next_day } : null;
}

/** The user's next unapplied day, without locking (a read that decides whether to catch up). */
export async function nextDayOf(db: Queryable, userId: number): Promise<string | null> {
  const { rows } = await db.query<{ next_day: string }>(
    'SELECT next_day::text AS next_day FROM savings_accounts WHERE user_id = $1',
    [userId],
  );
  return rows[0]?.next_day ?? null;
}

/**
 * Claims up to `limit` users with a cut-off due on or before `throughDay`. SKIP LOCKED: users
 * another job (or one of their own transfers) holds are left to that holder.
 */
export async function claimDue(
  tx: Queryable,
  throughDay: string,
  limit: number,
): Promise<DueAccount[]> {
  const { rows } = await tx.query<{ user_id: number; next_day: string }>(
    `SELECT user_id, next_day::text AS next_day FROM savings_accounts
     WHERE next_day <= $1::date ORDER BY user_id LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [throughDay, limit],
  );
  return rows.map((r) => ({ userId: r.user_id, nextDay: r.next_day }));
}

export async function setNextDay(tx: Queryable, userIds: number[], day: string): Promise<void> {
  await tx.query(
    'UPDATE savings_accounts SET next_day = $2::date WHERE user_id = ANY($1::bigint[])',
    [userIds, day],
  );
}

/** Pending and confirmed shares of each user (zero for accounts not created yet). */
export async function sharesOf(
  tx: Queryable,
  userIds: number[],
): Promise<Map<number, { pending: number; confirmed: number }>> {
  const { rows } = await tx.query<{ owner_id: number; kind: string; balance: number }>(
    `SELECT owner_id, kind, balance FROM ledger_accounts
     WHERE owner_id = ANY($1::bigint[]) AND kind IN ('savings_pending', 'savings_confirmed')`,
    [userIds],
  );
  const out = new Map(userIds.map((id) => [id, { pending: 0, confirmed: 0 }]));
  for (const r of rows) {
    const s = out.get(r.owner_id)!;
    if (r.kind === 'savings_pending') s.pending = r.balance;
    else s.confirmed = r.balance;
  }
  return out;
}

/** Transfers of one kind the user made on one platform day (the daily limit counts these). */
export async function countOfDay(
  tx: Queryable,
  userId: number,
  day: string,
  kind: 'in' | 'out',
): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM savings_records WHERE user_id = $1 AND day = $2::date AND kind = $3',
    [userId, day, kind],
  );
  return rows[0]!.n;
}

/** Both of today's counts, for the overview. */
export async function countsOfDay(
  db: Queryable,
  userId: number,
  day: string,
): Promise<{ in: number; out: number }> {
  const { rows } = await db.query<{ kind: 'in' | 'out'; n: number }>(
    `SELECT kind, count(*)::int AS n FROM savings_records
     WHERE user_id = $1 AND day = $2::date AND kind IN ('in', 'out') GROUP BY kind`,
    [userId, day],
  );
  return {
    in: rows.find((r) => r.kind === 'in')?.n ?? 0,
    out: rows.find((r) => r.kind === 'out')?.n ?? 0,
  };
}

export interface NewRecord {
  userId: number;
  kind: 'in' | 'out' | 'income';
  amount: number;
  day: string;
  atMs: number;
  transferId: number;
}

/** Writes records in one statement, returning them in the order given. */
export async function insertRecords(
  tx: Queryable,
  records: readonly NewRecord[],
): Promise<SavingsRecordRow[]> {
  if (!records.length) return [];
  const { rows } = await tx.query<SavingsRecordRow>(
    `INSERT INTO savings_records (user_id, kind, amount, day, at_ms, transfer_id)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::date[], $5::bigint[], $6::bigint[])
     RETURNING ${recordColumns}`,
    [
      records.map((r) => r.userId),
      records.map((r) => r.kind),
      records.map((r) => r.amount),
      records.map((r) => r.day),
      records.map((r) => r.atMs),
      records.map((r) => r.transferId),
    ],
  );
  return rows.sort((a, b) => a.id - b.id);
}

export interface DayRow {
  userId: number;
  day: string;
  confirmedAmount: number;
  base: number;
  income: number;
}

/** The job's days; a day written twice violates the primary key and fails the transaction. */
export async function insertDays(tx: Queryable, days: readonly DayRow[]): Promise<void> {
  if (!days.length) return;
  await tx.query(
    `INSERT INTO savings_days (user_id, day, confirmed_amount, base, income)
     SELECT * FROM unnest($1::bigint[], $2::date[], $3::bigint[], $4::bigint[], $5::bigint[])`,
    [
      days.map((d) => d.userId),
      days.map((d) => d.day),
      days.map((d) => d.confirmedAmount),
      days.map((d) => d.base),
      days.map((d) => d.income),
    ],
  );
}

/** Income of one day (yesterday's) and of all days. */
export async function incomeOf(
  db: Queryable,
  userId: number,
  day: string,
): Promise<{ day: number; total: number }> {
  const { rows } = await db.query<{ day: number; total: number }>(
    `SELECT coalesce(sum(income) FILTER (WHERE day = $2::date), 0)::bigint AS day,
            coalesce(sum(income), 0)::bigint AS total
     FROM savings_days WHERE user_id = $1`,
    [userId, day],
  );
  return rows[0] ?? { day: 0, total: 0 };
}

/** The user's records, newest first (keyset paging on id). */
export async function recordsOfUser(
  db: Queryable,
  userId: number,
  q: PageRequest,
): Promise<SavingsRecordRow[]> {
  const { rows } = await db.query<SavingsRecordRow>(
    `SELECT ${recordColumns} FROM savings_records
     WHERE user_id = $1 AND ($2::bigint IS NULL OR id < $2)
     ORDER BY id DESC LIMIT $3`,
    [userId, q.cursor ?? null, q.limit + 1],
  );
  return rows;
}
