import type { User } from '@shared/accounts/model';
import type { Db, Queryable } from '@infra/db';
import type { MessageParams, SystemMessageKind } from '@shared/content/model';
import { AppError, RetryLater } from '@server/platform/http/errors';
import type { CheckLimiter } from '@server/platform/check-limiter';
import type { Limiter } from '@server/platform/rate-limit';
import type { UserEvents } from '@server/platform/user-events';
import type { PlaceLookup } from '@server/platform/geoip';
import type * as repo from './auth.repo';
import type { authLimits } from './auth.limits';

/* What the parts of the auth service (auth.service.ts) share: their context and answers. */

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
  /** Two-factor codes per (address, user) at sign-in, per user in a session (`twoFactorLimits`). */
  twoFactor: CheckLimiter;
  /** Two-factor codes per user over a day. */
  twoFactorDaily: CheckLimiter;
};

// A login's lock-out says how long it lasts (`retryAfterMs`, Retry-After).
export const tooManyAttempts = (retryAfterMs?: number) =>
  retryAfterMs === undefined
    ? new AppError(429, 'TOO_MANY_ATTEMPTS', 'Too many attempts; try again later')
    : new RetryLater(429, 'TOO_MANY_ATTEMPTS', 'Too many attempts; try again later', retryAfterMs);

export type SecurityKind = Extract<SystemMessageKind, `security_${string}`>;

/**
 * Writes a security message in the caller's transaction (the content module's, passed in: it
 * stands above this one); call the answer after commit to tell the user's sockets.
 */
export interface SecurityMessages {
  write(
    tx: Queryable,
    userId: number,
    kind: SecurityKind,
    params?: MessageParams,
  ): Promise<() => void>;
}

/** What each part of the auth service works with: passed in, not captured. */
export interface AuthContext {
  db: Db;
  limiters: AuthLimiters;
  /**
   * Ends the sockets of sessions the service revokes, on whichever gateway they are, and tells
   * the user's sockets of the security messages it writes.
   */
  sessions: Pick<UserEvents, 'endSessions' | 'emit'>;
  messages: SecurityMessages;
  /** The state of the user's identity check, as the profile shows it. */
  kycOf: (userId: number) => Promise<User['kyc']>;
  /** The approximate place of a session's address (GEOIP_DATABASE; none without one). */
  places: PlaceLookup;
}
