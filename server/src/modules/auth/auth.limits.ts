import type { LimitSpec } from '@server/platform/rate-limit';

const minutes = (n: number) => n * 60;
const hours = (n: number) => n * 3600;

/**
 * The throttles of accounts, per window (DECISIONS.md, Accounts, where the figures are argued).
 * Logins: every attempt passes the address, then the (account, address) pair, then the account,
 * each gate only if the one before let it through.
 */
export const authLimits = {
  /** Login attempts per client address (any accounts). */
  loginAddress: { points: 100, durationSec: minutes(15) },
  /** Wrong logins per account from one address: what a stranger there can do to the account. */
  loginPair: { points: 10, durationSec: minutes(15) },
  /** The same pair over a day, so one address alone never fills `loginAccount`. */
  loginPairDaily: { points: 20, durationSec: hours(24) },
  /** Wrong logins per account from everywhere together: stops guessing spread over addresses. */
  loginAccount: { points: 100, durationSec: hours(24) },
  /** Step-1 checks of registration per client address. */
  registerCheck: { points: 30, durationSec: minutes(15) },
  /** Registrations per client address (each hashes two passwords). */
  register: { points: 10, durationSec: hours(1) },
} satisfies Record<string, LimitSpec>;

/**
 * Wrong confirmation passwords per user (a withdrawal's or a binding's transaction password, the
 * old password of a change): a stolen session must not guess a six-digit transaction password.
 */
export const confirmLimit: LimitSpec = { points: 10, durationSec: minutes(15) };

/**
 * Wrong two-factor codes: per (address, user) at sign-in and per user in a session (what a
 * stranger in one place can try), then per user over a day (guessing spread over addresses).
 * A code has a million values; 5 a quarter-hour and 30 a day leave a guesser odds under 1 in
 * 30 000 a day.
 */
export const twoFactorLimits = {
  place: { points: 5, durationSec: minutes(15) },
  daily: { points: 30, durationSec: hours(24) },
} satisfies Record<string, LimitSpec>;
