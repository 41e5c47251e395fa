import type { Queryable } from '@infra/db';
import type { PageRequest } from '@server/platform/paging';

export type KycRowStatus = 'pending' | 'verified' | 'rejected';

export interface KycRow {
  id: number;
  user_id: number;
  name: string;
  id_number: string;
  nationality: string;
  front_id: string;
  back_id: string;
  status: KycRowStatus;
  reason: string | null;
  created_at: Date;
  reviewed_at: Date | null;
  /** The user's account name, on rows read for operators. */
  user_account?: string;
  /** On rows read for operators: other accounts with the same ID number (`opsColumns`). */
  same_id_number?: { userId: string; userAccount: string; status: 'pending' | 'verified' }[];
}

const columns =
  'k.id, k.user_id, k.name, k.id_number, k.nationality, k.front_id, k.back_id, k.status, k.reason, k.created_at, k.reviewed_at';

/**
 * What operators see of a submission: the row, the account, and the other accounts whose
 * submission under review or verified has the same ID number (compared by `id_number_key`,
 * migration 0011), oldest account first.
 */
const opsColumns = `${columns}, u.account AS user_account,
  coalesce((
    SELECT json_agg(json_build_object('userId', o.user_id::text, 'userAccount', ou.account,
      'status', o.status) ORDER BY o.user_id)
    FROM kyc_submissions o JOIN users ou ON ou.id = o.user_id
    WHERE o.id_number_key = k.id_number_key AND o.user_id <> k.user_id
      AND o.status IN ('pending', 'verified')
  ), '[]'::json) AS same_id_number`;

/** The user's latest submission: it alone says where their identity check stands. */
export async function latestKycSubmission(db: Queryable, userId: number): Promise<KycRow | null> {
  const { rows } = await db.query<KycRow>(
    `SELECT ${columns} FROM kyc_submissions k WHERE k.user_id = $1 ORDER BY k.id DESC LIMIT 1`,
    [userId],
  );
  return rows[0] ?? null;
}

export async function verifiedAmong(
  db: Queryable,
  userIds: readonly number[],
): Promise<Set<number>> {
  const { rows } = await db.query<{ user_id: number }>(
    `SELECT user_id FROM (
       SELECT DISTINCT ON (user_id) user_id, status FROM kyc_submissions
       WHERE user_id = ANY($1::bigint[]) ORDER BY user_id, id DESC) latest
     WHERE status = 'verified'`,
    [userIds],
  );
  return new Set(rows.map((r) => Number(r.user_id)));
}

export async function insertKycSubmission(
  db: Queryable,
  s: {
    userId: number;
    name: string;
    idNumber: string;
    nationality: string;
    frontId: string;
    backId: string;
  },
): Promise<KycRow> {
  const { rows } = await db.query<KycRow>(
    `INSERT INTO kyc_submissions AS k (user_id, name, id_number, nationality, front_id, back_id)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${columns}`,
    [s.userId, s.name, s.idNumber, s.nationality, s.frontId, s.backId],
  );
  return rows[0]!;
}

/**
 * Moves a pending submission to its review outcome. The `status = 'pending'` condition makes
 * concurrent reviews race for the row: one gets it, the others get null.
 */
export async function reviewKycSubmission(
  db: Queryable,
  id: number,
  to: 'verified' | 'rejected',
  reason: string | null,
): Promise<KycRow | null> {
  const { rows } = await db.query<KycRow>(
    `UPDATE kyc_submissions k SET status = $2, reason = $3, reviewed_at = now()
     FROM users u WHERE k.id = $1 AND k.status = 'pending' AND u.id = k.user_id
     RETURNING ${columns}, u.account AS user_account`,
    [id, to, reason],
  );
  return rows[0] ?? null;
}

/** One submission as operators see it (`opsColumns`), or null. */
export async function opsKycSubmission(db: Queryable, id: number): Promise<KycRow | null> {
  const { rows } = await db.query<KycRow>(
    `SELECT ${opsColumns} FROM kyc_submissions k JOIN users u ON u.id = k.user_id WHERE k.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export async function kycSubmissionStatus(db: Queryable, id: number): Promise<KycRowStatus | null> {
  const { rows } = await db.query<{ status: KycRowStatus }>(
    'SELECT status FROM kyc_submissions WHERE id = $1',
    [id],
  );
  return rows[0]?.status ?? null;
}

export async function listKycSubmissions(
  db: Queryable,
  q: PageRequest & { status?: KycRowStatus },
): Promise<KycRow[]> {
  const { rows } = await db.query<KycRow>(
    `SELECT ${opsColumns} FROM kyc_submissions k JOIN users u ON u.id = k.user_id
     WHERE ($1::text IS NULL OR k.status = $1) AND ($2::bigint IS NULL OR k.id < $2)
     ORDER BY k.id DESC LIMIT $3`,
    [q.status ?? null, q.cursor ?? null, q.limit + 1],
  );
  return rows;
}

/** How many wait for an operator's review (the console's dashboard). */
/** Pending items, of one user when `userId` is given. */
export async function countPending(db: Queryable, userId?: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM kyc_submissions WHERE status = 'pending' AND ($1::bigint IS NULL OR user_id = $1)",
    [userId ?? null],
  );
  return rows[0]?.n ?? 0;
}
