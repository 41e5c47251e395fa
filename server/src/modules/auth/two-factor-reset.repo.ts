import type { Queryable } from '@infra/db';

/* The support resets of two-factor sign-in (migration 0039) and what support sees of it. */

export interface ResetRow {
  id: string;
  user_id: number;
  reason: string;
  ticket: string;
  requested_by: string;
  requested_by_name: string;
  requested_at: Date;
  approved_by: string | null;
  approved_by_name: string | null;
  approved_at: Date | null;
  effective_at: Date | null;
}

export type ResetOutcome =
  'applied' | 'cancelled_by_user' | 'cancelled_by_sign_in' | 'cancelled_by_operator';

const columns = `id::text, user_id, reason, ticket, requested_by::text,
  requested_by_name, requested_at, approved_by::text, approved_by_name, approved_at, effective_at`;

/** The user's pending reset, if any. */
export async function pendingReset(db: Queryable, userId: number): Promise<ResetRow | null> {
  const { rows } = await db.query<ResetRow>(
    `SELECT ${columns} FROM two_factor_resets WHERE user_id = $1 AND ended_at IS NULL`,
    [userId],
  );
  return rows[0] ?? null;
}

/** The user's two-factor state as support sees it: when it was turned on, codes and devices. */
export async function twoFactorFigures(db: Queryable, userId: number) {
  const { rows } = await db.query<{ since: Date | null; codes: number; devices: number }>(
    `SELECT (SELECT enabled_at FROM user_two_factor WHERE user_id = $1) AS since,
       (SELECT count(*)::int FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL) AS codes,
       (SELECT count(*)::int FROM trusted_devices WHERE user_id = $1) AS devices`,
    [userId],
  );
  return rows[0]!;
}

/**
 * A new pending reset of the user's current enrolment; null when two-factor is not on. The
 * partial unique index refuses a second pending one (23505).
 */
export async function insertReset(
  db: Queryable,
  r: Pick<ResetRow, 'user_id' | 'reason' | 'ticket' | 'requested_by' | 'requested_by_name'> & {
    requested_at: Date;
  },
): Promise<ResetRow | null> {
  const { rows } = await db.query<ResetRow>(
    `INSERT INTO two_factor_resets
       (user_id, two_factor_since, reason, ticket, requested_by, requested_by_name, requested_at)
     SELECT user_id, enabled_at, $2, $3, $4, $5, $6 FROM user_two_factor
     WHERE user_id = $1 AND enabled_at IS NOT NULL
     RETURNING ${columns}`,
    [r.user_id, r.reason, r.ticket, r.requested_by, r.requested_by_name, r.requested_at],
  );
  return rows[0] ?? null;
}

/** Approves the pending, unapproved reset `id`; null when it is no longer that. */
export async function approveReset(
  db: Queryable,
  id: string,
  by: { id: string; name: string },
  at: Date,
  effectiveAt: Date,
): Promise<ResetRow | null> {
  const { rows } = await db.query<ResetRow>(
    `UPDATE two_factor_resets
     SET approved_by = $2, approved_by_name = $3, approved_at = $4, effective_at = $5
     WHERE id = $1 AND ended_at IS NULL AND approved_at IS NULL AND requested_by <> $2
     RETURNING ${columns}`,
    [id, by.id, by.name, at, effectiveAt],
  );
  return rows[0] ?? null;
}

/** Ends the user's pending reset with `outcome`; the row it ended, or null when none was pending. */
export async function endReset(
  db: Queryable,
  userId: number,
  outcome: ResetOutcome,
  by: string,
  at: Date,
): Promise<ResetRow | null> {
  const { rows } = await db.query<ResetRow>(
    `UPDATE two_factor_resets SET ended_at = $4, outcome = $2, ended_by_name = $3
     WHERE user_id = $1 AND ended_at IS NULL RETURNING ${columns}`,
    [userId, outcome, by, at],
  );
  return rows[0] ?? null;
}

/** Ends the user's reset as applied if it is due at `now`: the row, once, to one claimant. */
export async function claimDue(db: Queryable, userId: number, now: Date): Promise<ResetRow | null> {
  const { rows } = await db.query<ResetRow>(
    `UPDATE two_factor_resets SET ended_at = $2, outcome = 'applied', ended_by_name = 'system'
     WHERE user_id = $1 AND ended_at IS NULL AND effective_at <= $2 RETURNING ${columns}`,
    [userId, now],
  );
  return rows[0] ?? null;
}

/** The users whose approved reset is due at `now`. */
export async function dueResets(db: Queryable, now: Date, limit = 100): Promise<number[]> {
  const { rows } = await db.query<{ user_id: number }>(
    `SELECT user_id FROM two_factor_resets
     WHERE ended_at IS NULL AND effective_at IS NOT NULL AND effective_at <= $1
     ORDER BY effective_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => Number(r.user_id));
}

/**
 * Turns off the enrolment reset `resetId` was for: the secret, the recovery codes and the
 * trusted devices go. False when that enrolment is gone already (the user turned it off).
 */
export async function removeEnrolment(db: Queryable, userId: number, resetId: string) {
  const { rowCount } = await db.query(
    `DELETE FROM user_two_factor t USING two_factor_resets r
     WHERE r.id = $2 AND t.user_id = $1 AND r.user_id = $1 AND t.enabled_at = r.two_factor_since`,
    [userId, resetId],
  );
  if (rowCount !== 1) return false;
  await db.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM trusted_devices WHERE user_id = $1', [userId]);
  return true;
}
