import type { DurationRate } from '../product';

/**
 * Expiry at a clock time (docs/PRODUCT.md, Expiry at a clock time): besides a duration, an order
 * can end at the end of this minute or of the next one. It needs at least 30 s left; its rate is
 * that of the largest duration band not above the time left, judged one second early so that the
 * moment between the server's check and the database's acceptance cannot carry an order into a
 * band it no longer fills. Server and client decide with this one function.
 */
export const clockExpiries = ['minute_end', 'next_minute_end'] as const;
export type ClockExpiry = (typeof clockExpiries)[number];

/** The least time an order at a clock time may have left when accepted. */
export const CLOCK_MIN_LEFT_MS = 30_000;
/** How much earlier than the check the rate band is judged (see above). */
export const CLOCK_MARGIN_MS = 1_000;

const MINUTE_MS = 60_000;

/** The instant (epoch ms, a whole minute) an order at `expiry` placed at `nowMs` ends. */
export function clockExpiryAt(expiry: ClockExpiry, nowMs: number): number {
  const minute = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
  return minute + (expiry === 'minute_end' ? MINUTE_MS : 2 * MINUTE_MS);
}

export interface ClockTerms {
  /** Epoch ms, a whole minute. */
  expiresAt: number;
  /** Milliseconds from `nowMs` to `expiresAt`. */
  leftMs: number;
  /** The band whose rate applies; null when too little time is left (or no band fits). */
  rung: DurationRate | null;
}

/** What an order at `expiry` placed now gets: its end, the time left, and its rate's band. */
export function clockTerms(
  durations: readonly DurationRate[],
  expiry: ClockExpiry,
  nowMs: number,
): ClockTerms {
  const expiresAt = clockExpiryAt(expiry, nowMs);
  const leftMs = expiresAt - nowMs;
  const judged = leftMs - CLOCK_MARGIN_MS;
  if (judged < CLOCK_MIN_LEFT_MS) return { expiresAt, leftMs, rung: null };
  let rung: DurationRate | null = null;
  for (const d of durations)
    if (d.seconds * 1000 <= judged && (!rung || d.seconds > rung.seconds)) rung = d;
  return { expiresAt, leftMs, rung };
}

/**
 * Whether an order's expiry keeps the clock-time rule: a whole minute, at least 30 s after
 * acceptance, and its duration the whole seconds between them.
 */
export function keepsClockRule(o: { createdAt: number; expiresAt: number; duration: number }) {
  return (
    o.expiresAt % MINUTE_MS === 0 &&
    o.expiresAt - o.createdAt >= CLOCK_MIN_LEFT_MS &&
    o.duration === Math.floor((o.expiresAt - o.createdAt) / 1000)
  );
}
