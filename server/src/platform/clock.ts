/**
 * The platform's notion of "today". Days start at 00:00 in the platform time zone, given as a
 * fixed offset from UTC (PLATFORM_UTC_OFFSET_MINUTES, default 0 = UTC).
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

const DAY = 86_400_000;

/** Start of the platform day containing `ts` (epoch ms). */
export function dayStart(ts: number, offsetMinutes = 0): number {
  const shift = offsetMinutes * 60_000;
  return Math.floor((ts + shift) / DAY) * DAY - shift;
}

/** The platform day of `ts` as YYYY-MM-DD. */
export function dayKey(ts: number, offsetMinutes = 0): string {
  return new Date(dayStart(ts, offsetMinutes) + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

/**
 * A clock tests can move: real time plus an offset that only grows. Exposed over HTTP only when
 * the server starts with TEST_CLOCK=1 (see the test-clock route), so days pass in milliseconds.
 */
export function movableClock(base: Clock = systemClock) {
  let offset = 0;
  return {
    now: () => base.now() + offset,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
      offset += ms;
    },
    offset: () => offset,
  };
}
