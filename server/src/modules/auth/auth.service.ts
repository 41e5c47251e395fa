import { randomInt } from 'node:crypto';
import {
  DEFAULT_TERMS_VERSION,
  type PasswordResetBody,
  type RegisterBody,
  type RegisterCheckBody,
  type User,
} from '@shared/accounts/model';
import type { KycState } from '@shared/kyc/model';
import type { Db } from '@infra/db';
import { pgErrorCode } from '@infra/db/db';
import {
  AppError,
  badRequest,
  conflict,
  notFound,
  unauthenticated,
} from '@server/platform/http/errors';
import { hashPassword } from '@server/platform/passwords';
import { addressKey } from '@server/platform/rate-limit';
import type { UserEvents } from '@server/platform/user-events';
import { noPlaces, type PlaceLookup } from '@server/platform/geoip';
import * as repo from './auth.repo';
import {
  presentUser,
  type AuthContext,
  type AuthLimiters,
  type SecurityMessages,
} from './auth.context';
import { signIn } from './auth.sign-in';
import { userSessions } from './auth.sessions';
import { passwords } from './auth.passwords';
import { twoFactor } from './auth.two-factor';
import { signInSteps } from './auth.sign-in-steps';
import { accountSecurity } from './auth.security';

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

const rateLimited = () => new AppError(429, 'RATE_LIMITED', 'Too many requests; try again later');

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
  sessions: Pick<UserEvents, 'endSessions' | 'emit'>,
  identity: { state(userId: number): Promise<KycState> },
  /** The content module's writer of security messages (it stands above this module). */
  messages: SecurityMessages,
  /** TERMS_VERSION: the terms a new account must accept (its version sent as acceptTerms). */
  termsVersion: string = DEFAULT_TERMS_VERSION,
  /** GEOIP_DATABASE's lookup: where a session's address is (none without a database). */
  places: PlaceLookup = noPlaces,
) {
  const kycOf = async (userId: number): Promise<User['kyc']> => {
    const { status, reason } = await identity.state(userId);
    return reason ? { status, reason } : { status };
  };
  const ctx: AuthContext = { db, limiters, sessions, kycOf, messages, places };
  const pw = passwords(ctx, (userId, code) => tf.requireSecondFactor(userId, code));
  const tf = twoFactor(ctx, (userId, plain) => pw.verifyTradePassword(userId, plain));
  const steps = signInSteps(ctx);
  return {
    ...registration(ctx, termsVersion),
    ...signIn(ctx, (userId, input, seen) => steps.deviceStep(userId, input, seen)),
    ...userSessions(ctx),
    ...pw,
    ...tf,
    ...accountSecurity(ctx, (userId, plain) => pw.verifyTradePassword(userId, plain)),
    resetPassword: (input: PasswordResetBody, ip: string) => steps.resetPassword(input, ip),
    ...profiles(ctx),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
