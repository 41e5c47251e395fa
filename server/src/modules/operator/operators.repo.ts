import type { Queryable } from '@infra/db';
import type { OperatorRole } from '@server/platform/http/operator-gate';

export interface OperatorRow {
  id: number;
  name: string;
  role: OperatorRole;
  password_hash: string;
  totp_secret: string;
  totp_last_step: number;
  created_at: Date;
  disabled_at: Date | null;
}

const columns =
  'id, name, role, password_hash, totp_secret, totp_last_step, created_at, disabled_at';

export async function insertOperator(
  db: Queryable,
  o: { name: string; role: OperatorRole; passwordHash: string; totpSecret: string },
): Promise<OperatorRow | null> {
  const { rows } = await db.query<OperatorRow>(
    `INSERT INTO operators (name, role, password_hash, totp_secret) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING RETURNING ${columns}`,
    [o.name, o.role, o.passwordHash, o.totpSecret],
  );
  return rows[0] ?? null;
}

export async function operatorByName(db: Queryable, name: string): Promise<OperatorRow | null> {
  const { rows } = await db.query<OperatorRow>(
    `SELECT ${columns} FROM operators WHERE lower(name) = lower($1)`,
    [name],
  );
  return rows[0] ?? null;
}

export async function operatorById(db: Queryable, id: number): Promise<OperatorRow | null> {
  const { rows } = await db.query<OperatorRow>(`SELECT ${columns} FROM operators WHERE id = $1`, [
    id,
  ]);
  return rows[0] ?? null;
}

/** Every operator, with the count of their live sessions. */
export async function listOperators(
  db: Queryable,
): Promise<(OperatorRow & { live_sessions: number })[]> {
  const { rows } = await db.query<OperatorRow & { live_sessions: number }>(
    `SELECT o.id, o.name, o.role, o.password_hash, o.totp_secret, o.totp_last_step, o.created_at,
       o.disabled_at,
       (SELECT count(*)::int FROM operator_sessions s
        WHERE s.operator_id = o.id AND s.revoked_at IS NULL AND s.expires_at > now()) AS live_sessions
     FROM operators o ORDER BY o.id`,
  );
  return rows;
}

/** Every operator's name, old names that break today's rule included. */
export async function operatorNames(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM operators');
  return rows.map((r) => r.name);
}

const NEW_OPERATOR_LOCK = 0x6f707300; // "ops\0"

/**
 * Makes new operators one at a time, until the transaction ends: a name is checked against the
 * others' look (their skeletons) and inserted while no other new name can slip in between.
 */
export async function lockNewOperators(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [NEW_OPERATOR_LOCK]);
}
/**
 * Locks the operator `id` and every active admin, in id order (so two changes never wait for
 * each other in a cycle), and returns them. A change that waited sees the rows as the other
 * change left them: an admin it disabled is no longer among the active ones.
 */
export async function lockForChange(tx: Queryable, id: number): Promise<OperatorRow[]> {
  const { rows } = await tx.query<OperatorRow>(
    `SELECT ${columns} FROM operators
     WHERE id = $1 OR (role = 'admin' AND disabled_at IS NULL)
     ORDER BY id FOR UPDATE`,
    [id],
  );
  return rows;
}

export async function setOperatorDisabled(
  tx: Queryable,
  id: number,
  disabled: boolean,
): Promise<OperatorRow> {
  const { rows } = await tx.query<OperatorRow>(
    `UPDATE operators
     SET disabled_at = CASE WHEN $2 THEN coalesce(disabled_at, now()) ELSE NULL END
     WHERE id = $1 RETURNING ${columns}`,
    [id, disabled],
  );
  return rows[0]!;
}

export async function setOperatorRole(
  tx: Queryable,
  id: number,
  role: OperatorRole,
): Promise<OperatorRow> {
  const { rows } = await tx.query<OperatorRow>(
    `UPDATE operators SET role = $2 WHERE id = $1 RETURNING ${columns}`,
    [id, role],
  );
  return rows[0]!;
}

/** Ends every live session of an operator; how many there were. */
export async function revokeOperatorSessions(db: Queryable, operatorId: number): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE operator_sessions SET revoked_at = now()
     WHERE operator_id = $1 AND revoked_at IS NULL AND expires_at > now()`,
    [operatorId],
  );
  return rowCount ?? 0;
}

/**
 * Takes a TOTP time step for the operator if it is newer than the last one used: true once per
 * step, so a code seen over a shoulder (or replayed) cannot open a second session.
 */
export async function useTotpStep(db: Queryable, operatorId: number, step: number) {
  const { rowCount } = await db.query(
    'UPDATE operators SET totp_last_step = $2 WHERE id = $1 AND totp_last_step < $2',
    [operatorId, step],
  );
  return rowCount === 1;
}

export async function insertOperatorSession(
  db: Queryable,
  tokenHash: string,
  operatorId: number,
  ttlMs: number,
): Promise<Date> {
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO operator_sessions (token_hash, operator_id, expires_at)
     VALUES ($1, $2, now() + $3 * interval '1 millisecond') RETURNING expires_at`,
    [tokenHash, operatorId, ttlMs],
  );
  return rows[0]!.expires_at;
}

/** The live session of a token hash with its operator (not disabled), or null. */
export async function liveOperatorSession(
  db: Queryable,
  tokenHash: string,
): Promise<Pick<OperatorRow, 'id' | 'name' | 'role'> | null> {
  const { rows } = await db.query<Pick<OperatorRow, 'id' | 'name' | 'role'>>(
    `SELECT o.id, o.name, o.role FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()
       AND o.disabled_at IS NULL`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function revokeOperatorSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query(
    'UPDATE operator_sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL',
    [tokenHash],
  );
}

export interface AuditRow {
  id: number;
  at: Date;
  operator_id: number | null;
  operator_name: string;
  role: string;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  address: string | null;
  status: number;
}

export async function insertAudit(db: Queryable, a: Omit<AuditRow, 'id' | 'at'>): Promise<void> {
  await db.query(
    `INSERT INTO ops_audit (operator_id, operator_name, role, action, target, before, after, reason, address, status)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10)`,
    [
      a.operator_id,
      a.operator_name,
      a.role,
      a.action,
      a.target,
      a.before === null ? null : JSON.stringify(a.before),
      a.after === null ? null : JSON.stringify(a.after),
      a.reason,
      a.address,
      a.status,
    ],
  );
}

/** Audit lines, newest first, filtered by operator name, action and target (parts of them). */
export async function auditLines(
  db: Queryable,
  q: { operator?: string; action?: string; target?: string; before?: number; limit: number },
): Promise<AuditRow[]> {
  const { rows } = await db.query<AuditRow>(
    `SELECT id, at, operator_id, operator_name, role, action, target, before, after, reason, address, status
     FROM ops_audit
     WHERE ($1::text IS NULL OR lower(operator_name) = lower($1))
       AND ($2::text IS NULL OR action ILIKE '%' || $2 || '%')
       AND ($3::text IS NULL OR target ILIKE '%' || $3 || '%')
       AND ($4::bigint IS NULL OR id < $4)
     ORDER BY id DESC LIMIT $5`,
    [q.operator ?? null, q.action ?? null, q.target ?? null, q.before ?? null, q.limit],
  );
  return rows;
}

export interface AccessRow {
  id: number;
  at: Date;
  operator_id: number | null;
  operator_name: string;
  role: string;
  kind: 'profile' | 'review_context' | 'upload';
  user_id: number;
  upload_id: string | null;
  address: string;
}

/**
 * Appends one read to the access log. An upload's user is its owner, looked up in the same
 * statement: an upload without a row (none is served) would leave the user null, which the table
 * refuses.
 */
export async function insertAccess(
  db: Queryable,
  a: Omit<AccessRow, 'id' | 'at' | 'user_id'> & { user_id: number | null },
): Promise<void> {
  await db.query(
    `INSERT INTO ops_access_log (operator_id, operator_name, role, kind, user_id, upload_id, address)
     VALUES ($1, $2, $3, $4, coalesce($5::bigint, (SELECT owner_id FROM uploads WHERE id = $6)), $6, $7)`,
    [a.operator_id, a.operator_name, a.role, a.kind, a.user_id, a.upload_id, a.address],
  );
}

/** Access-log lines, newest first, by operator name and by user. */
export async function accessLines(
  db: Queryable,
  q: { operator?: string; userId?: number; before?: number; limit: number },
): Promise<AccessRow[]> {
  const { rows } = await db.query<AccessRow>(
    `SELECT id, at, operator_id, operator_name, role, kind, user_id, upload_id, address
     FROM ops_access_log
     WHERE ($1::text IS NULL OR lower(operator_name) = lower($1))
       AND ($2::bigint IS NULL OR user_id = $2)
       AND ($3::bigint IS NULL OR id < $3)
     ORDER BY id DESC LIMIT $4`,
    [q.operator ?? null, q.userId ?? null, q.before ?? null, q.limit],
  );
  return rows;
}
