import { createHash, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import type { Db, Queryable } from '@infra/db';
import { pgErrorCode } from '@infra/db/db';
import { operatorNameSkeleton } from '@shared/operator-names';
import { AppError, conflict, notFound } from '@server/platform/http/errors';
import { dummyHash, hashPassword, verifyPassword } from '@server/platform/passwords';
import type { CheckLimiter } from '@server/platform/check-limiter';
import type { Limiter } from '@server/platform/rate-limit';
import { addressKey } from '@server/platform/rate-limit';
import type {
  AuditEntry,
  OperatorCaller,
  OperatorRole,
  PersonalDataRead,
} from '@server/platform/http/operator-gate';
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
 * Why a sign-in failed, for the audit log only (the answer is BAD_CREDENTIALS for all of them):
 * a wrong code after the right password says the password is known to someone.
 */
type SignInFailure = 'unknown_name' | 'password' | 'disabled' | 'code' | 'code_used' | 'locked';

const lastAdmin = () =>
  conflict('LAST_ADMIN', 'The last active admin cannot be disabled or given another role');

const isActiveAdmin = (o: repo.OperatorRow) => o.role === 'admin' && o.disabled_at === null;

/**
 * Changes one operator under the lock of `lockForChange` (that operator and every active admin),
 * refusing a change that would leave no active admin.
 */
const changeOperator = (
  db: Db,
  id: number,
  removesAdmin: (o: repo.OperatorRow) => boolean,
  apply: (tx: Queryable, o: repo.OperatorRow) => Promise<repo.OperatorRow>,
) =>
  db.transaction(async (tx) => {
    const locked = await repo.lockForChange(tx, id);
    const before = locked.find((o) => o.id === id);
    if (!before) throw notFound('No such operator');
    const admins = locked.filter((o) => o.role === 'admin' && o.disabled_at === null);
    if (removesAdmin(before) && admins.every((o) => o.id === id)) throw lastAdmin();
    const after = await apply(tx, before);
    return { before: present(before), after: present(after) };
  });

/** The operators themselves: created, listed, disabled and enabled, given a role. */
function operatorAccounts(db: Db, issuer: string) {
  return {
    /**
     * A new operator with a generated password and TOTP secret. The name (already a slug, not a
     * reserved one: the route's schema) must not look like any operator's (its skeleton):
     * `ACCOUNT_TAKEN` otherwise, checked and inserted under a lock so two look-alikes sent at
     * once cannot both pass.
     */
    async create(input: { name: string; role: OperatorRole }) {
      const password = randomBytes(12).toString('base64url');
      const totpSecret = generateSecret();
      const passwordHash = await hashPassword(password);
      const skeleton = operatorNameSkeleton(input.name);
      let row: repo.OperatorRow | null;
      try {
        row = await db.transaction(async (tx) => {
          await repo.lockNewOperators(tx);
          const names = await repo.operatorNames(tx);
          if (names.some((n) => operatorNameSkeleton(n) === skeleton)) return null;
          return repo.insertOperator(tx, {
            name: input.name,
            role: input.role,
            passwordHash,
            totpSecret,
          });
        });
      } catch (err) {
        if (pgErrorCode(err) !== '23505') throw err;
        row = null;
      }
      if (!row)
        throw conflict(
          'ACCOUNT_TAKEN',
          'An operator has this name, or one that looks like it',
          'name',
        );
      return {
        operator: present(row),
        password,
        totpSecret,
        otpauthUri: generateURI({ issuer, label: row.name, secret: totpSecret }),
      };
    },

    list: async () =>
      (await repo.listOperators(db)).map((o) => ({
        ...present(o),
        liveSessions: o.live_sessions,
      })),

    /**
     * Disables an operator and ends their sessions at once, in one transaction: their next
     * request is 401, and enabling them later does not bring those sessions back. The last
     * active admin cannot be disabled (409 LAST_ADMIN).
     */
    disable: (id: number) =>
      changeOperator(db, id, isActiveAdmin, async (tx, o) => {
        const after = await repo.setOperatorDisabled(tx, o.id, true);
        await repo.revokeOperatorSessions(tx, o.id);
        return after;
      }),

    /** Lets a disabled operator sign in again (with their own password and code). */
    enable: (id: number) =>
      changeOperator(
        db,
        id,
        () => false,
        (tx, o) => repo.setOperatorDisabled(tx, o.id, false),
      ),

    /**
     * Gives an operator another role, from their next request on (every request reads the role).
     * The last active admin keeps theirs (409 LAST_ADMIN).
     */
    setRole: (id: number, role: OperatorRole) =>
      changeOperator(
        db,
        id,
        (o) => isActiveAdmin(o) && role !== 'admin',
        (tx, o) => repo.setOperatorRole(tx, o.id, role),
      ),
  };
}

/** Operator sign-in throttles, as limiters (limits: `operatorLoginLimits`). */
interface OperatorLoginLimiters {
  /** Wrong sign-ins per operator name (password or code), counted before any check runs. */
  perName: CheckLimiter;
  /** Sign-in attempts per client address. */
  perAddress: Limiter;
}

/**
 * One audit line of a sign-in attempt: the operator whose name was given (or `unknown`, role
 * `none`, when nobody has it), the name as typed, and what came of it. Never the password or
 * the code.
 */
const signInLine = (
  db: Db,
  operator: repo.OperatorRow | null,
  tried: string,
  address: string,
  status: number,
  after: Record<string, unknown>,
) =>
  repo.insertAudit(db, {
    operator_id: operator?.id ?? null,
    operator_name: operator?.name ?? 'unknown',
    role: operator?.role ?? 'none',
    action: 'POST /api/ops/session',
    target: `${operator ? `operator=${operator.id} ` : ''}name=${tried}`,
    before: null,
    after,
    reason: null,
    address,
    status,
  });

/**
 * Checks a sign-in's password and code under the per-name throttle, after the same work for
 * every failure: true when both hold (the code's step is then used up), false with the failure
 * said, or null when the name is locked out (`lockedOut` says this attempt locked it).
 */
async function checkCredentials(
  db: Db,
  perName: CheckLimiter,
  operator: repo.OperatorRow | null,
  input: { name: string; password: string; code: string },
) {
  let failure: SignInFailure = 'unknown_name';
  const fail = (why: SignInFailure) => {
    failure = why;
    return false;
  };
  let lockedOut = false;
  const ok = await perName.run(
    input.name.toLowerCase(),
    async () => {
      const passwordOk = await verifyPassword(
        operator?.password_hash ?? (await dummyHash()),
        input.password,
      );
      if (!operator) return false;
      if (!passwordOk) return fail('password');
      if (operator.disabled_at) return fail('disabled');
      const result = await verifyTotp({
        secret: operator.totp_secret,
        token: input.code,
        epochTolerance: TOTP_STEP_S,
      });
      if (!result.valid) return fail('code');
      const step = Math.floor(Date.now() / 1000 / TOTP_STEP_S) + (result.delta ?? 0);
      if (await repo.useTotpStep(db, operator.id, step)) return true;
      return fail('code_used');
    },
    () => {
      lockedOut = true;
    },
  );
  return { ok, failure, lockedOut };
}

/** Operator sign-in: throttled, audited, and a session of its own when it succeeds. */
function operatorSignIn(db: Db, limits: OperatorLoginLimiters) {
  return {
    /**
     * The same answer for an unknown name, a wrong password and a wrong or used code, after the
     * same work; throttled per address and per name before anything is checked. Every attempt
     * is a line of the audit log, and so is each lock-out it causes: the name's (the wrong
     * attempt that fills its limit) and the address's (its first refused attempt; the refusals
     * after it are not written, so a flood from one address cannot flood the log).
     */
    async login(input: { name: string; password: string; code: string }, ip: string) {
      const used = await limits.perAddress.spend(addressKey(ip));
      if (used > limits.perAddress.points) {
        if (used === limits.perAddress.points + 1)
          await signInLine(db, await repo.operatorByName(db, input.name), input.name, ip, 429, {
            signedIn: false,
            lockedOut: 'address',
          });
        throw tooManyAttempts();
      }
      const operator = await repo.operatorByName(db, input.name);
      const { ok, failure, lockedOut } = await checkCredentials(
        db,
        limits.perName,
        operator,
        input,
      );
      if (ok === null) {
        await signInLine(db, operator, input.name, ip, 429, { signedIn: false, failure: 'locked' });
        throw tooManyAttempts();
      }
      if (!ok || !operator) {
        await signInLine(db, operator, input.name, ip, 401, { signedIn: false, failure });
        if (lockedOut)
          await signInLine(db, operator, input.name, ip, 429, {
            signedIn: false,
            lockedOut: 'name',
          });
        throw new AppError(401, 'BAD_CREDENTIALS', 'Wrong name, password or code');
      }
      const token = randomBytes(32).toString('base64url');
      const expiresAt = await repo.insertOperatorSession(
        db,
        hashToken(token),
        operator.id,
        OPERATOR_SESSION_TTL_MS,
      );
      await repo.insertAudit(db, {
        operator_id: operator.id,
        operator_name: operator.name,
        role: operator.role,
        action: 'POST /api/ops/session',
        target: `operator=${operator.id}`,
        before: null,
        after: { signedIn: true },
        reason: null,
        address: ip,
        status: 200,
      });
      return { token, operator: present(operator), expiresAt: expiresAt.getTime() };
    },
  };
}

/** Operator sessions once signed in: checked on every request, ended one by one or all. */
function operatorSessions(db: Db) {
  return {
    /** Ends every live session of an operator (a lost laptop); how many were ended. */
    async endSessions(id: number) {
      if (!(await repo.operatorById(db, id))) throw notFound('No such operator');
      return repo.revokeOperatorSessions(db, id);
    },

    async authenticate(token: string): Promise<OperatorCaller | null> {
      if (!token || token.length > 100) return null;
      const tokenHash = hashToken(token);
      const o = await repo.liveOperatorSession(db, tokenHash);
      return o ? { id: o.id, name: o.name, role: o.role, tokenHash } : null;
    },

    logout: (caller: OperatorCaller) =>
      caller.tokenHash ? repo.revokeOperatorSession(db, caller.tokenHash) : Promise.resolve(),
  };
}

/** The append-only logs: the audit log of operators' actions and the personal-data access log. */
function operatorLogs(db: Db) {
  return {
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

    /** Appends one read of personal data to the access log (append-only in the database). */
    async recordRead(r: PersonalDataRead): Promise<void> {
      await repo.insertAccess(db, {
        operator_id: r.operator.id,
        operator_name: r.operator.name,
        role: r.operator.role,
        kind: r.kind,
        user_id: r.kind === 'upload' ? null : r.userId,
        upload_id: r.kind === 'upload' ? r.uploadId : null,
        address: r.address,
      });
    },

    /** The access log, newest first, by operator name and by user. */
    async accessLog(q: { operator?: string; user?: number; cursor?: number; limit: number }) {
      const rows = await repo.accessLines(db, {
        operator: q.operator,
        userId: q.user,
        before: q.cursor,
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
          kind: r.kind,
          userId: String(r.user_id),
          uploadId: r.upload_id,
          address: r.address,
        })),
        nextCursor: rows.length > q.limit ? String(page.at(-1)!.id) : null,
      };
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

/**
 * Named operators (issue 20): created by an admin or the service token with a generated password
 * and TOTP secret, shown once; signed in with name, password and a current TOTP code, each code
 * good for one sign-in; sessions of their own (12 h), apart from traders'. Also the audit log.
 */
export function createOperatorsService(
  db: Db,
  limits: OperatorLoginLimiters,
  issuer = 'Trading console',
) {
  return {
    ...operatorAccounts(db, issuer),
    ...operatorSignIn(db, limits),
    ...operatorSessions(db),
    ...operatorLogs(db),
  };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;
