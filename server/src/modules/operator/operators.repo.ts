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

export async function listOperators(db: Queryable): Promise<OperatorRow[]> {
  const { rows } = await db.query<OperatorRow>(`SELECT ${columns} FROM operators ORDER BY id`);
  return rows;
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
