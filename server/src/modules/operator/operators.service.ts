import { createHash, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import type { Db } from '@infra/db';
import { pgErrorCode } from '@infra/db/db';
import { AppError, conflict } from '@server/platform/http/errors';
import { dummyHash, hashPassword, verifyPassword } from '@server/platform/passwords';
import type { CheckLimiter } from '@server/platform/check-limiter';
import type { Limiter } from '@server/platform/rate-limit';
import { addressKey } from '@server/platform/rate-limit';
import type { AuditEntry, OperatorCaller, OperatorRole } from '@server/platform/http/operator-gate';
import * as repo from './operators.repo';

/** Operator sign-in throttles: wrong attempts per name, attempts per client address. */
export const operatorLoginLimits = {
  perName: { points: 10, durationSec: 15 * 60 },
  perAddress: { points: 50, durationSec: 15 * 60 },
};

/** How long an operator's session lasts: a working shift; then the console signs in again. */
export const OPERATOR_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
const TOTP_STEP_S = 30;

const tooManyAttempts = () =>
  new AppError(429, 'TOO_MANY_ATTEMPTS', 'Too many attempts; try again later');
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The LIKE pattern that matches `s` literally inside a longer text. */
const literal = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface OperatorView {
  id: string;
  name: string;
  role: OperatorRole;
  createdAt: number;
  disabled: boolean;
}

const present = (o: repo.OperatorRow): OperatorView => ({
  id: String(o.id),
  name: o.name,
  role: o.role,
  createdAt: o.created_at.getTime(),
  disabled: o.disabled_at !== null,
});

/**
 * Named operators (issue 20): created by an admin or the service token with a generated password
 * and TOTP secret, shown once; signed in with name, password and a current TOTP code, each code
 * good for one sign-in; sessions of their own (12 h), apart from traders'. Also the audit log.
 */
export function createOperatorsService(
  db: Db,
  limits: {
    /** Wrong sign-ins per operator name (password or code), counted before any check runs. */
    perName: CheckLimiter;
    /** Sign-in attempts per client address. */
    perAddress: Limiter;
  },
  issuer = 'Trading console',
) {
  return {
    async create(input: { name: string; role: OperatorRole }) {
      const password = randomBytes(12).toString('base64url');
      const totpSecret = generateSecret();
      let row: repo.OperatorRow | null;
      try {
        row = await repo.insertOperator(db, {
          name: input.name,
          role: input.role,
          passwordHash: await hashPassword(password),
          totpSecret,
        });
      } catch (err) {
        if (pgErrorCode(err) !== '23505') throw err;
        row = null;
      }
      if (!row) throw conflict('ACCOUNT_TAKEN', 'An operator has this name', 'name');
      return {
        operator: present(row),
        password,
        totpSecret,
        otpauthUri: generateURI({ issuer, label: row.name, secret: totpSecret }),
      };
    },

    list: async () => (await repo.listOperators(db)).map(present),

    /**
     * The same answer for an unknown name, a wrong password and a wrong or used code, after the
     * same work; throttled per address and per name before anything is checked.
     */
    async login(input: { name: string; password: string; code: string }, ip: string) {
      if (!(await limits.perAddress.hit(addressKey(ip)))) throw tooManyAttempts();
      const operator = await repo.operatorByName(db, input.name);
      const ok = await limits.perName.run(input.name.toLowerCase(), async () => {
        const passwordOk = await verifyPassword(
          operator?.password_hash ?? (await dummyHash()),
          input.password,
        );
        if (!operator || !passwordOk || operator.disabled_at) return false;
        const result = await verifyTotp({
          secret: operator.totp_secret,
          token: input.code,
          epochTolerance: TOTP_STEP_S,
        });
        if (!result.valid) return false;
        const step = Math.floor(Date.now() / 1000 / TOTP_STEP_S) + (result.delta ?? 0);
        return repo.useTotpStep(db, operator.id, step);
      });
      if (ok === null) throw tooManyAttempts();
      if (!ok || !operator)
        throw new AppError(401, 'BAD_CREDENTIALS', 'Wrong name, password or code');
      const token = randomBytes(32).toString('base64url');
      const expiresAt = await repo.insertOperatorSession(
        db,
        hashToken(token),
        operator.id,
        OPERATOR_SESSION_TTL_MS,
      );
      return { token, operator: present(operator), expiresAt: expiresAt.getTime() };
    },

    async authenticate(token: string): Promise<OperatorCaller | null> {
      if (!token || token.length > 100) return null;
      const tokenHash = hashToken(token);
      const o = await repo.liveOperatorSession(db, tokenHash);
      return o ? { id: o.id, name: o.name, role: o.role, tokenHash } : null;
    },

    logout: (caller: OperatorCaller) =>
      caller.tokenHash ? repo.revokeOperatorSession(db, caller.tokenHash) : Promise.resolve(),

    /** Appends one line to the audit log (the database refuses to change or delete lines). */
    async record(e: AuditEntry): Promise<void> {
      await repo.insertAudit(db, {
        operator_id: e.operator.id,
        operator_name: e.operator.name,
        role: e.operator.role,
        action: e.action,
        target: e.target,
        before: e.before ?? null,
        after: e.after ?? null,
        reason: e.reason,
        address: e.address,
        status: e.status,
      });
    },

    async audit(q: {
      operator?: string;
      action?: string;
      target?: string;
      cursor?: string;
      limit: number;
    }) {
      const rows = await repo.auditLines(db, {
        operator: q.operator,
        action: q.action === undefined ? undefined : literal(q.action),
        target: q.target === undefined ? undefined : literal(q.target),
        before: q.cursor ? Number(q.cursor) : undefined,
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit);
      return {
        items: page.map((r) => ({
          id: String(r.id),
          at: r.at.getTime(),
          operator: r.operator_name,
          operatorId: r.operator_id === null ? null : String(r.operator_id),
          role: r.role,
          action: r.action,
          target: r.target,
          before: r.before,
          after: r.after,
          reason: r.reason,
          address: r.address,
          status: r.status,
        })),
        nextCursor: rows.length > q.limit ? String(page.at(-1)!.id) : null,
      };
    },
  };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;
