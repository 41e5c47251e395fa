import type { Queryable } from '@infra/db';

/* The tables of two-factor sign-in (migration 0038): secrets, recovery codes, trusted devices. */

export interface TwoFactorRow {
  secret: string;
  enabled: boolean;
}

export async function twoFactorOf(db: Queryable, userId: number): Promise<TwoFactorRow | null> {
  const { rows } = await db.query<TwoFactorRow>(
    'SELECT secret, enabled_at IS NOT NULL AS enabled FROM user_two_factor WHERE user_id = $1',
    [userId],
  );
  return rows[0] ?? null;
}

/** A new pending secret in place of any pending one; none while two-factor is on (false). */
export async function startEnrolment(db: Queryable, userId: number, secret: string) {
  const { rowCount } = await db.query(
    `INSERT INTO user_two_factor (user_id, secret) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0, created_at = now()
       WHERE user_two_factor.enabled_at IS NULL`,
    [userId, secret],
  );
  return rowCount === 1;
}

/**
 * Takes the time step a code was accepted at, once: false when that step (or a later one) was
 * taken already, so a code is never accepted twice, nor an older one of its window.
 */
export async function useStep(db: Queryable, userId: number, step: number): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE user_two_factor SET last_step = $2 WHERE user_id = $1 AND last_step < $2',
    [userId, step],
  );
  return rowCount === 1;
}

/** Turns the pending secret on with its recovery codes' hashes; false when not pending. */
export async function enable(db: Queryable, userId: number, codeHashes: readonly string[]) {
  const { rowCount } = await db.query(
    'UPDATE user_two_factor SET enabled_at = now() WHERE user_id = $1 AND enabled_at IS NULL',
    [userId],
  );
  if (rowCount !== 1) return false;
  await db.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
  await db.query(
    'INSERT INTO user_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])',
    [userId, codeHashes],
  );
  return true;
}

/** Turns two-factor off: the secret, the recovery codes and the trusted devices go. */
export async function disable(db: Queryable, userId: number): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM user_two_factor WHERE user_id = $1 AND enabled_at IS NOT NULL',
    [userId],
  );
  if (rowCount !== 1) return false;
  await db.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM trusted_devices WHERE user_id = $1', [userId]);
  return true;
}

/** Spends a recovery code: true once, for an unused code of the user. */
export async function useRecoveryCode(db: Queryable, userId: number, codeHash: string) {
  const { rowCount } = await db.query(
    `UPDATE user_recovery_codes SET used_at = now()
     WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`,
    [userId, codeHash],
  );
  return rowCount === 1;
}

export async function recoveryCodesLeft(db: Queryable, userId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL',
    [userId],
  );
  return rows[0]?.n ?? 0;
}

/**
 * How many devices a user keeps trusted: the ones last seen. A phone, a tablet, a few browsers and
 * their reinstalls fit; a script signing in again and again without its token does not grow the
 * table without end (a device pushed out asks for a code again where two-factor is on).
 */
export const TRUSTED_DEVICES_MAX = 20;

/** Trusts a new device of the user; the least recently seen beyond TRUSTED_DEVICES_MAX go. */
export async function trustDevice(db: Queryable, userId: number, tokenHash: string) {
  await db.query('INSERT INTO trusted_devices (token_hash, user_id) VALUES ($1, $2)', [
    tokenHash,
    userId,
  ]);
  await db.query(
    `DELETE FROM trusted_devices WHERE token_hash IN (
       SELECT token_hash FROM trusted_devices WHERE user_id = $1
        ORDER BY last_seen_at DESC, created_at DESC, token_hash = $2 DESC OFFSET $3)`,
    [userId, tokenHash, TRUSTED_DEVICES_MAX],
  );
}

/** Whether the device is trusted for this user (its last sign-in noted when it is). */
export async function deviceTrusted(db: Queryable, userId: number, tokenHash: string) {
  const { rowCount } = await db.query(
    'UPDATE trusted_devices SET last_seen_at = now() WHERE token_hash = $1 AND user_id = $2',
    [tokenHash, userId],
  );
  return rowCount === 1;
}

/** Whether the user has signed in on any device before (the first one is no news). */
export async function hasDevices(db: Queryable, userId: number): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM trusted_devices WHERE user_id = $1 LIMIT 1', [
    userId,
  ]);
  return rows.length > 0;
}

/** Forgets the user's devices but `keep` (two-factor turned on: only the device that did it stays). */
export async function forgetOtherDevices(db: Queryable, userId: number, keep: string | null) {
  await db.query(
    'DELETE FROM trusted_devices WHERE user_id = $1 AND token_hash IS DISTINCT FROM $2',
    [userId, keep],
  );
}
