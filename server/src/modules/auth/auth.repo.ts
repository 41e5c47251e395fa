import type { Queryable } from '@infra/db';

export interface UserRow {
  id: number;
  account: string;
  phone: string;
  nickname: string;
  password_hash: string;
  trade_password_hash: string;
  invite_code: string;
  credit_score: number;
  created_at: Date;
  frozen_at: Date | null;
}

const userColumns =
  'id, account, phone, nickname, password_hash, trade_password_hash, invite_code, credit_score, created_at, frozen_at';

export async function accountExists(db: Queryable, account: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM users WHERE lower(account) = lower($1)', [
    account,
  ]);
  return rowCount > 0;
}

export async function inviteCodeExists(db: Queryable, code: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM invite_codes WHERE code = $1', [code]);
  return rowCount > 0;
}

/** Inserts a code; false when it exists already. */
/** Gives a new user's own invitation code its owner. */
export async function setInviteOwner(db: Queryable, code: string, userId: number): Promise<void> {
  await db.query('UPDATE invite_codes SET owner_id = $1 WHERE code = $2', [userId, code]);
}

export async function insertInviteCode(
  db: Queryable,
  code: string,
  ownerId: number | null,
): Promise<boolean> {
  const { rowCount } = await db.query(
    'INSERT INTO invite_codes (code, owner_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [code, ownerId],
  );
  return rowCount > 0;
}

export async function insertUser(
  db: Queryable,
  u: {
    account: string;
    phone: string;
    passwordHash: string;
    tradePasswordHash: string;
    inviteCode: string;
    invitedWith: string;
    /** The terms version accepted; accepted now (the transaction's time). */
    termsVersion: string;
  },
): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `INSERT INTO users (account, phone, nickname, password_hash, trade_password_hash, invite_code, invited_with, terms_version, terms_accepted_at)
     VALUES ($1, $2, $1, $3, $4, $5, $6, $7, now()) RETURNING ${userColumns}`,
    [
      u.account,
      u.phone,
      u.passwordHash,
      u.tradePasswordHash,
      u.inviteCode,
      u.invitedWith,
      u.termsVersion,
    ],
  );
  return rows[0]!;
}

export async function userByAccount(db: Queryable, account: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${userColumns} FROM users WHERE lower(account) = lower($1)`,
    [account],
  );
  return rows[0] ?? null;
}

export async function userById(db: Queryable, id: number): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`SELECT ${userColumns} FROM users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function updatePasswordHash(
  db: Queryable,
  id: number,
  column: 'password_hash' | 'trade_password_hash',
  hash: string,
): Promise<void> {
  await db.query(`UPDATE users SET ${column} = $2 WHERE id = $1`, [id, hash]);
}

export async function updateCreditScore(
  db: Queryable,
  id: number,
  score: number,
): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE users SET credit_score = $2 WHERE id = $1', [
    id,
    score,
  ]);
  return rowCount > 0;
}

// Sessions

export async function insertSession(
  db: Queryable,
  tokenHash: string,
  userId: number,
  ttlMs: number,
  /** The security page's view of it: user agent, address, and the device token's hash. */
  seen: { userAgent?: string | null; ip?: string | null; deviceHash?: string | null } = {},
): Promise<void> {
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, expires_at, user_agent, ip, device_hash)
     VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000), $4, $5, $6)`,
    [
      tokenHash,
      userId,
      ttlMs,
      seen.userAgent?.slice(0, 300) ?? null,
      seen.ip ?? null,
      seen.deviceHash ?? null,
    ],
  );
}

export interface SessionRow {
  user_id: number;
  last_seen_at: Date;
  frozen: boolean;
}

/**
 * The live sessions (not revoked, not expired by the database clock) among many token hashes,
 * by hash; a hash without one is absent.
 */
export async function liveSessions(
  db: Queryable,
  tokenHashes: readonly string[],
): Promise<Map<string, SessionRow>> {
  const { rows } = await db.query<SessionRow & { token_hash: string }>(
    `SELECT s.token_hash, s.user_id, s.last_seen_at, u.frozen_at IS NOT NULL AS frozen
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = ANY($1::text[]) AND s.revoked_at IS NULL AND s.expires_at > now()`,
    [tokenHashes],
    { prepare: true },
  );
  return new Map(rows.map((r) => [r.token_hash, r]));
}

/** Sliding expiry: a session in use lives another `ttlMs`. */
export async function touchSession(db: Queryable, tokenHash: string, ttlMs: number): Promise<void> {
  await db.query(
    `UPDATE sessions SET last_seen_at = now(), expires_at = now() + make_interval(secs => $2::double precision / 1000)
     WHERE token_hash = $1 AND revoked_at IS NULL`,
    [tokenHash, ttlMs],
  );
}

export async function revokeSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query(
    'UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL',
    [tokenHash],
  );
}

/** Revokes every session of a user except `keepHash`; answers the token hashes it revoked. */
export async function revokeOtherSessions(
  db: Queryable,
  userId: number,
  keepHash: string,
): Promise<string[]> {
  const { rows } = await db.query<{ token_hash: string }>(
    'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND token_hash <> $2 AND revoked_at IS NULL RETURNING token_hash',
    [userId, keepHash],
  );
  return rows.map((r) => r.token_hash);
}

/**
 * Freezes (reason) or unfreezes (null) a user; the state before and after, or null for an
 * unknown user.
 */
export async function setFrozen(
  db: Queryable,
  userId: number,
  reason: string | null,
): Promise<{ before: boolean; after: boolean } | null> {
  const { rows } = await db.query<{ before: boolean; after: boolean }>(
    `UPDATE users u SET frozen_at = CASE WHEN $2::text IS NULL THEN NULL ELSE coalesce(old.frozen_at, now()) END,
            frozen_reason = $2
     FROM users old WHERE u.id = $1 AND old.id = u.id
     RETURNING old.frozen_at IS NOT NULL AS before, u.frozen_at IS NOT NULL AS after`,
    [userId, reason],
  );
  return rows[0] ?? null;
}

export interface OpsUserRow {
  id: number;
  account: string;
  phone: string;
  nickname: string;
  credit_score: number;
  created_at: Date;
  frozen_at: Date | null;
  frozen_reason: string | null;
}

const opsUserColumns =
  'id, account, phone, nickname, credit_score, created_at, frozen_at, frozen_reason';

/**
 * Users an operator looks for: by id (all digits, exact), by account (case-insensitive prefix) or
 * by phone (its digits, anywhere). `pattern` is a LIKE pattern already escaped by the caller.
 */
export async function searchUsers(
  db: Queryable,
  q: { id: number | null; pattern: string; digits: string | null; limit: number },
): Promise<OpsUserRow[]> {
  const { rows } = await db.query<OpsUserRow>(
    `SELECT ${opsUserColumns} FROM users
     WHERE id = $1 OR lower(account) LIKE lower($2) || '%'
        OR ($3::text IS NOT NULL AND regexp_replace(phone, '[^0-9]', '', 'g') LIKE '%' || $3 || '%')
     ORDER BY (id = $1) DESC, id DESC LIMIT $4`,
    [q.id ?? -1, q.pattern, q.digits, q.limit],
  );
  return rows;
}

export async function opsUserById(db: Queryable, id: number): Promise<OpsUserRow | null> {
  const { rows } = await db.query<OpsUserRow>(`SELECT ${opsUserColumns} FROM users WHERE id = $1`, [
    id,
  ]);
  return rows[0] ?? null;
}

export interface LiveSessionRow {
  token_hash: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  user_agent: string | null;
  ip: string | null;
  device_hash: string | null;
}

/** The user's live sessions, newest first (the token hash's first 12 characters name one). */
export async function liveSessionsOf(db: Queryable, userId: number): Promise<LiveSessionRow[]> {
  const { rows } = await db.query<LiveSessionRow>(
    `SELECT token_hash, created_at, last_seen_at, expires_at, user_agent, ip, device_hash FROM sessions
     WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()
     ORDER BY created_at DESC LIMIT 50`,
    [userId],
  );
  return rows;
}

/** Ends every live session of the user; the hashes of those ended. */
export async function revokeAllSessions(db: Queryable, userId: number): Promise<string[]> {
  const { rows } = await db.query<{ token_hash: string }>(
    'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING token_hash',
    [userId],
  );
  return rows.map((r) => r.token_hash);
}

/** Ends the user's live session whose token hash starts with `id`; its full hash, or null. */
export async function revokeSessionById(
  db: Queryable,
  userId: number,
  id: string,
): Promise<string | null> {
  const { rows } = await db.query<{ token_hash: string }>(
    `UPDATE sessions SET revoked_at = now()
     WHERE user_id = $1 AND left(token_hash, 12) = $2 AND revoked_at IS NULL AND expires_at > now()
     RETURNING token_hash`,
    [userId, id],
  );
  return rows[0]?.token_hash ?? null;
}

/** The device token hash a session signed in with (null for sessions older than devices). */
export async function deviceOfSession(db: Queryable, tokenHash: string): Promise<string | null> {
  const { rows } = await db.query<{ device_hash: string | null }>(
    'SELECT device_hash FROM sessions WHERE token_hash = $1',
    [tokenHash],
  );
  return rows[0]?.device_hash ?? null;
}

export async function antiPhishingOf(db: Queryable, userId: number): Promise<string | null> {
  const { rows } = await db.query<{ anti_phishing: string | null }>(
    'SELECT anti_phishing FROM users WHERE id = $1',
    [userId],
  );
  return rows[0]?.anti_phishing ?? null;
}

export async function setAntiPhishing(db: Queryable, userId: number, phrase: string | null) {
  await db.query('UPDATE users SET anti_phishing = $2 WHERE id = $1', [userId, phrase]);
}
