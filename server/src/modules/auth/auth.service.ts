import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  DEFAULT_TERMS_VERSION,
  type ChangePasswordBody,
  type LoginAnswer,
  type LoginBody,
  type RegisterBody,
  type RegisterCheckBody,
  type User,
} from '@shared/accounts';
import type { KycState } from '@shared/kyc';
import type { Db } from '@infra/db';
import { pgErrorCode } from '@infra/db/db';
import {
  AppError,
  badRequest,
  conflict,
  notFound,
  unauthenticated,
} from '@server/platform/http/errors';
import { dummyHash, hashPassword, verifyPassword } from '@server/platform/passwords';
import type { CheckLimiter } from '@server/platform/check-limiter';
import { addressKey, type Limiter } from '@server/platform/rate-limit';
import { grouped } from '@server/platform/grouped';
import type { UserEvents } from '@server/platform/user-events';
import type { SessionInfo } from '@server/platform/http/auth';
import * as repo from './auth.repo';
import type { authLimits } from './auth.limits';

export const SESSION_TTL_MS = 30 * 86_400_000;
/** Sliding expiry is written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = 3_600_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Codes people read aloud and type on phones: no 0/O or 1/I. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const newInviteCode = (length = 8) =>
  Array.from({ length }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/** A user as support sees them (GET /api/ops/users…). */
function presentOpsUser(u: repo.OpsUserRow, kyc: User['kyc']) {
  return {
    id: String(u.id),
    account: u.account,
    phone: u.phone,
    nickname: u.nickname,
    creditScore: u.credit_score,
    createdAt: u.created_at.getTime(),
    frozen: u.frozen_at !== null,
    frozenReason: u.frozen_reason,
    kycStatus: kyc.status,
  };
}

/** `kyc`: the state of the user's latest identity check (none for a new user). */
export function presentUser(u: repo.UserRow, kyc: User['kyc'] = { status: 'none' }): User {
  return {
    id: String(u.id),
    account: u.account,
    phone: u.phone,
    nickname: u.nickname,
    inviteCode: u.invite_code,
    creditScore: u.credit_score,
    kyc,
    createdAt: u.created_at.getTime(),
  };
}

/** One limiter per figure of `authLimits`, and the confirmation passwords' (`confirmLimit`). */
export type AuthLimiters = Record<keyof typeof authLimits, Limiter> & {
  /**
   * Passwords a signed-in user types to confirm something (the transaction password of a
   * withdrawal or of binding an account, the old password when changing one), per user.
   */
  confirm: CheckLimiter;
};

const tooManyAttempts = () =>
  new AppError(429, 'TOO_MANY_ATTEMPTS', 'Too many attempts; try again later');
const rateLimited = () => new AppError(429, 'RATE_LIMITED', 'Too many requests; try again later');

/**
 * Spends a point at each gate in order, going on only while they let the attempt through. At a
 * refusal the gates before it get their points back: an attempt refused before its password is
 * checked is no guess, and must not fill the account's count for a stranger hammering a blocked
 * pair.
 */
async function passGates(gates: [Limiter, string][]): Promise<boolean> {
  for (const [i, [limiter, key]] of gates.entries()) {
    if (await limiter.hit(key)) continue;
    await Promise.all(gates.slice(0, i).map(([l, k]) => l.giveBack(k)));
    return false;
  }
  return true;
}

/** What the parts of the auth service below work with: passed in, not captured. */
interface AuthContext {
  db: Db;
  limiters: AuthLimiters;
  /** Ends the sockets of sessions the service revokes, on whichever gateway they are. */
  sessions: Pick<UserEvents, 'endSessions'>;
  /** The state of the user's identity check, as the profile shows it. */
  kycOf: (userId: number) => Promise<User['kyc']>;
}

const assertInvite = async (db: Db, code: string) => {
  if (!(await repo.inviteCodeExists(db, code)))
    throw badRequest('INVITE_INVALID', 'The account-opening code is not valid', 'inviteCode');
};

/** Registration in two steps, and the invitation codes it needs. */
function registration({ db, limiters }: AuthContext, termsVersion: string) {
  return {
    /**
     * Step 1 of registration. Throttled per client address, and the invitation code is checked
     * before the account: without a valid code nobody learns which accounts exist.
     */
    async checkRegistration(input: RegisterCheckBody, ip: string): Promise<void> {
      if (!(await limiters.registerCheck.hit(addressKey(ip)))) throw rateLimited();
      await assertInvite(db, input.inviteCode);
      if (await repo.accountExists(db, input.account))
        throw conflict('ACCOUNT_TAKEN', 'This account is taken', 'account');
    },

    /** Opens the account; throttled per client address before any password is hashed. */
    async register(input: RegisterBody, ip: string): Promise<User> {
      // Missing, false, true or an older version: the user has not seen these terms.
      if (input.acceptTerms !== termsVersion)
        throw badRequest(
          'TERMS_NOT_ACCEPTED',
          `Accept the terms of service and risk disclosure (version ${termsVersion})`,
          'acceptTerms',
        );
      if (input.password !== input.passwordConfirm)
        throw badRequest('PASSWORD_MISMATCH', 'Passwords do not match', 'passwordConfirm');
      if (input.tradePassword !== input.tradePasswordConfirm)
        throw badRequest(
          'TRADE_PASSWORD_MISMATCH',
          'Transaction passwords do not match',
          'tradePasswordConfirm',
        );
      if (!(await limiters.register.hit(addressKey(ip)))) throw rateLimited();
      await assertInvite(db, input.inviteCode);
      const [passwordHash, tradePasswordHash] = await Promise.all([
        hashPassword(input.password),
        hashPassword(input.tradePassword),
      ]);
      try {
        return await db.transaction(async (tx) => {
          let code = newInviteCode();
          while (!(await repo.insertInviteCode(tx, code, null))) code = newInviteCode();
          const user = await repo.insertUser(tx, {
            ...input,
            passwordHash,
            tradePasswordHash,
            inviteCode: code,
            invitedWith: input.inviteCode,
            termsVersion,
          });
          await repo.setInviteOwner(tx, code, user.id);
          return presentUser(user);
        });
      } catch (err) {
        // Two registrations of one account at once: the unique index lets exactly one through.
        if (pgErrorCode(err) === '23505')
          throw conflict('ACCOUNT_TAKEN', 'This account is taken', 'account');
        throw err;
      }
    },

    async createInvite(code?: string): Promise<string> {
      const wanted = code?.toUpperCase() ?? newInviteCode();
      if (!(await repo.insertInviteCode(db, wanted, null)))
        throw conflict('INVALID_STATE', 'This code exists already', 'code');
      return wanted;
    },
  };
}

/** Signing in with account and password: throttled, and a new session when it succeeds. */
function signIn({ db, limiters, kycOf }: AuthContext) {
  return {
    /**
     * The same answer, after the same work, for an unknown account and a wrong password. Every
     * attempt takes its points before the password is checked (atomically, so guesses sent at
     * once cannot slip past a limit together): from its address, its (account, address) pair and
     * the account as a whole (`authLimits`). A stranger's guesses thus block the stranger's pair,
     * not the owner elsewhere; only guessing spread over many addresses fills the account's
     * count. A success clears the pair's counts and gives the address and the account their
     * point back.
     */
    async login(input: LoginBody, ip: string): Promise<LoginAnswer> {
      const account = input.account.toLowerCase();
      const address = addressKey(ip);
      // The address first: it holds no spaces, so the pair's key is unambiguous.
      const pair = `${address} ${account}`;
      const admitted = await passGates([
        [limiters.loginAddress, address],
        [limiters.loginPair, pair],
        [limiters.loginPairDaily, pair],
        [limiters.loginAccount, account],
      ]);
      if (!admitted) throw tooManyAttempts();
      const user = await repo.userByAccount(db, input.account);
      const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), input.password);
      if (!user || !ok) throw new AppError(401, 'BAD_CREDENTIALS', 'Wrong account or password');
      // Told only to whoever knows the password: a guesser learns nothing of the account.
      if (user.frozen_at)
        throw new AppError(403, 'ACCOUNT_FROZEN', 'This account is frozen; contact support');
      await Promise.all([
        limiters.loginPair.reset(pair),
        limiters.loginPairDaily.reset(pair),
        limiters.loginAccount.giveBack(account),
        limiters.loginAddress.giveBack(address),
      ]);
      const token = randomBytes(32).toString('base64url');
      await repo.insertSession(db, hashToken(token), user.id, SESSION_TTL_MS);
      return { token, user: presentUser(user, await kycOf(user.id)) };
    },
  };
}

/** Sessions once signed in: checked on each request, listed and ended. */
function userSessions({ db, sessions }: AuthContext) {
  /**
   * A session by its token's hash, read when the request asks: lookups that arrive while the
   * database is busy share one statement (platform/grouped.ts), each still reading after it
   * arrived, so a session revoked before a request is refused to it.
   */
  const liveSession = grouped(async (hashes: readonly string[]) => {
    const found = await repo.liveSessions(db, hashes);
    return hashes.map((h) => ({ value: found.get(h) ?? null }));
  });

  return {
    /** Ends the session, and then its sockets (other tabs of the same login included). */
    async logout(session: SessionInfo): Promise<void> {
      await repo.revokeSession(db, session.tokenHash);
      sessions.endSessions([session.tokenHash], 'logout');
    },

    /** The session of a bearer token, or null; extends a session in use (sliding expiry). */
    async authenticate(token: string): Promise<SessionInfo | null> {
      if (!token || token.length > 100) return null;
      const tokenHash = hashToken(token);
      const s = await liveSession(tokenHash);
      if (!s) return null;
      if (Date.now() - s.last_seen_at.getTime() > TOUCH_EVERY_MS)
        await repo.touchSession(db, tokenHash, SESSION_TTL_MS);
      return { userId: s.user_id, tokenHash, frozen: s.frozen };
    },

    /** The user's live sessions, named by the first 12 characters of their token hash. */
    async sessionsOf(userId: number) {
      return (await repo.liveSessionsOf(db, userId)).map((s) => ({
        id: s.token_hash.slice(0, 12),
        createdAt: s.created_at.getTime(),
        lastSeenAt: s.last_seen_at.getTime(),
        expiresAt: s.expires_at.getTime(),
      }));
    },

    /** Ends every session of the user, and their sockets; how many ended. */
    async revokeSessions(userId: number): Promise<number> {
      if (!(await repo.opsUserById(db, userId))) throw notFound('No such user');
      const revoked = await repo.revokeAllSessions(db, userId);
      sessions.endSessions(revoked, 'revoked');
      return revoked.length;
    },
  };
}

/** The login and transaction passwords of a signed-in user: changed, and confirmed. */
function passwords({ db, limiters, sessions }: AuthContext) {
  /**
   * Checks a password the signed-in user typed against `hash`, through the confirmation limiter:
   * guesses sent at once run at most its limit of verifications, while right passwords sent at
   * once all get checked (they wait for the checks under way instead of being refused). Past the
   * limit: 429, whatever the password.
   */
  const confirmPassword = async (userId: number, hash: string, plain: string) => {
    const ok = await limiters.confirm.run(String(userId), () => verifyPassword(hash, plain));
    if (ok === null) throw tooManyAttempts();
    return ok;
  };

  return {
    /**
     * Changes the login or transaction password and ends the user's other sessions, their sockets
     * too once the change is committed; this session and its sockets stay.
     */
    async changePassword(
      session: SessionInfo,
      kind: 'login' | 'trade',
      input: ChangePasswordBody,
    ): Promise<void> {
      if (input.newPassword !== input.confirmPassword)
        throw badRequest(
          kind === 'login' ? 'PASSWORD_MISMATCH' : 'TRADE_PASSWORD_MISMATCH',
          'Passwords do not match',
          'confirmPassword',
        );
      const u = await repo.userById(db, session.userId);
      if (!u) throw unauthenticated();
      const current = kind === 'login' ? u.password_hash : u.trade_password_hash;
      if (!(await confirmPassword(u.id, current, input.oldPassword)))
        throw new AppError(
          403,
          kind === 'login' ? 'WRONG_PASSWORD' : 'WRONG_TRADE_PASSWORD',
          'The old password is wrong',
          'oldPassword',
        );
      const hash = await hashPassword(input.newPassword);
      const revoked = await db.transaction(async (tx) => {
        await repo.updatePasswordHash(
          tx,
          u.id,
          kind === 'login' ? 'password_hash' : 'trade_password_hash',
          hash,
        );
        return repo.revokeOtherSessions(tx, u.id, session.tokenHash);
      });
      sessions.endSessions(
        revoked,
        kind === 'login' ? 'password_changed' : 'trade_password_changed',
      );
    },

    /** For money movements that need the transaction password; throttled (`confirm`). */
    async verifyTradePassword(userId: number, plain: string): Promise<boolean> {
      const u = await repo.userById(db, userId);
      return !!u && (await confirmPassword(u.id, u.trade_password_hash, plain));
    },
  };
}

/** The user as they and support see them, and what support changes of them. */
function profiles({ db, kycOf }: AuthContext) {
  return {
    async me(userId: number): Promise<User> {
      const u = await repo.userById(db, userId);
      if (!u) throw unauthenticated();
      return presentUser(u, await kycOf(u.id));
    },

    /** Operators set a user's credit score; false when there is no such user. */
    setCreditScore: (userId: number, score: number) => repo.updateCreditScore(db, userId, score),

    /** A user's credit score, or null for an unknown user (the audit's "before"). */
    creditScoreOf: async (userId: number) =>
      (await repo.userById(db, userId))?.credit_score ?? null,

    /** Users by id, account prefix or phone digits, for support (at most `limit`). */
    async searchUsers(q: string, limit = 20) {
      const text = q.trim();
      const rows = await repo.searchUsers(db, {
        id: /^\d{1,15}$/.test(text) ? Number(text) : null,
        pattern: text.replace(/[\\%_]/g, (c) => `\\${c}`),
        digits: /^[+\d\s()-]{4,}$/.test(text) ? text.replace(/\D/g, '') : null,
        limit,
      });
      return Promise.all(rows.map(async (r) => presentOpsUser(r, await kycOf(r.id))));
    },

    /** One user as support sees them; 404 for an unknown id. */
    async opsUser(userId: number) {
      const row = await repo.opsUserById(db, userId);
      if (!row) throw notFound('No such user');
      return presentOpsUser(row, await kycOf(row.id));
    },

    /** Freezes the user with a reason, or lifts the freeze (null); 404 for an unknown user. */
    async setFrozen(userId: number, reason: string | null) {
      const change = await repo.setFrozen(db, userId, reason);
      if (!change) throw notFound('No such user');
      return change;
    },
  };
}

/**
 * Registration, login, sessions and passwords. `sessions` ends the sockets of the sessions this
 * service revokes (logout, a password change), on whichever gateway they are. `identity` is the
 * kyc module's state of a user's identity check, which the profile shows (the kyc module stands
 * above this one, so the composition root passes it in).
 */
export function createAuthService(
  db: Db,
  limiters: AuthLimiters,
  sessions: Pick<UserEvents, 'endSessions'>,
  identity: { state(userId: number): Promise<KycState> },
  /** TERMS_VERSION: the terms a new account must accept (its version sent as acceptTerms). */
  termsVersion: string = DEFAULT_TERMS_VERSION,
) {
  const kycOf = async (userId: number): Promise<User['kyc']> => {
    const { status, reason } = await identity.state(userId);
    return reason ? { status, reason } : { status };
  };
  const ctx: AuthContext = { db, limiters, sessions, kycOf };
  return {
    ...registration(ctx, termsVersion),
    ...signIn(ctx),
    ...userSessions(ctx),
    ...passwords(ctx),
    ...profiles(ctx),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
