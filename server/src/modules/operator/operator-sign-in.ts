import { createHash, randomBytes } from 'node:crypto';
import { verify as verifyTotp } from 'otplib';
import type { Db } from '@infra/db';
import { AppError, notFound } from '@server/platform/http/errors';
import { dummyHash, verifyPassword } from '@server/platform/passwords';
import type { CheckLimiter } from '@server/platform/check-limiter';
import type { Limiter } from '@server/platform/rate-limit';
import { addressKey } from '@server/platform/rate-limit';
import type { OperatorCaller } from '@server/platform/http/operator-gate';
import * as repo from './operators.repo';
import { present } from './operator-view';

/*
 * Operator sign-in (name, password and a one-use TOTP code; throttled and audited) and the
 * sessions it opens, apart from traders'.
 */

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

/**
 * Why a sign-in failed, for the audit log only (the answer is BAD_CREDENTIALS for all of them):
 * a wrong code after the right password says the password is known to someone.
 */
type SignInFailure = 'unknown_name' | 'password' | 'disabled' | 'code' | 'code_used' | 'locked';

/** Operator sign-in throttles, as limiters (limits: `operatorLoginLimits`). */
export interface OperatorLoginLimiters {
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
export function operatorSignIn(db: Db, limits: OperatorLoginLimiters) {
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
export function operatorSessions(db: Db) {
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
