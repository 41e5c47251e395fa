/**
 * The hold on a newly linked withdrawal account (docs/API.md, Security): withdrawals to it are
 * accepted from its `usableAt`, on the server's clock. Pure, for the countdown and the tests.
 */

/** The hold the server applies when a figure is missing (WITHDRAWAL_ACCOUNT_HOLD_HOURS). */
export const DEFAULT_HOLD_HOURS = 24;

const HOUR_MS = 3_600_000;

/** Milliseconds until the account takes withdrawals, at server time `now`; never below zero. */
export const holdLeftMs = (usableAt: number, now: number): number => Math.max(0, usableAt - now);

/** Whether the account is still on hold at server time `now`. */
export const isOnHold = (account: { usableAt: number }, now: number): boolean =>
  holdLeftMs(account.usableAt, now) > 0;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * "23:14:05": hours (two digits at least), minutes, seconds. Seconds round up, so "00:00:00"
 * never shows while the hold is on: the countdown is gone by then.
 */
export function formatHoldLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return `${pad(hours)}:${pad(minutes)}:${pad(total % 60)}`;
}

/** When the shown second next changes (ms from `now`); Infinity once the hold is over. */
export function msToNextSecond(usableAt: number, now: number): number {
  const left = holdLeftMs(usableAt, now);
  if (left === 0) return Infinity;
  return left % 1000 || 1000;
}

/**
 * The hold in whole hours, as an account on hold shows it (its `usableAt` less its `createdAt`);
 * the server's default when no account is on hold.
 */
export function holdHours(accounts: readonly { createdAt: number; usableAt: number }[]): number {
  const held = accounts.find((a) => a.usableAt > a.createdAt);
  return held ? Math.round((held.usableAt - held.createdAt) / HOUR_MS) : DEFAULT_HOLD_HOURS;
}
