/**
 * Countdowns of open orders. They run on the server's clock (streams' `serverNow()`), never the
 * phone's: a phone set minutes wrong must still show the 30 s an order really has left.
 */

/** Milliseconds until `expiresAt`, both on the server clock; never below zero. */
export function remainingMs(expiresAt: number, serverNow: number): number {
  return Math.max(0, expiresAt - serverNow);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * "00:29", "04:59", "1:00:00". Seconds are rounded up, so "00:00" shows only once the order has
 * expired, and a 30 s order starts at "00:30".
 */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

/** The countdown text of an order at server time `serverNow`. */
export function countdownText(expiresAt: number, serverNow: number): string {
  return formatCountdown(remainingMs(expiresAt, serverNow));
}

/** When the countdown text next changes (ms from `serverNow`), to schedule the next update. */
export function msToNextSecond(expiresAt: number, serverNow: number): number {
  const left = remainingMs(expiresAt, serverNow);
  if (left === 0) return Infinity;
  const toNext = left % 1000;
  return toNext === 0 ? 1000 : toNext;
}
