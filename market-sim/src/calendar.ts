/**
 * Trading calendars (product/DECISIONS.md, "Products and the market"), all in UTC:
 * - `crypto`: always open.
 * - `fx` (forex, metals, energy): closed from Friday 22:00 until Sunday 22:00.
 * - `index`: open Monday–Friday, 13:30 ≤ t < 20:00.
 *
 * Plain arithmetic on epoch milliseconds: UTC has no daylight saving and the rules name no
 * holidays, so a position within the week is all that matters and no date library is needed.
 */

/** The calendar a product trades on. */
export type TradingCalendar = 'crypto' | 'fx' | 'index';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

// 1970-01-01 was a Thursday, so the first Monday 00:00 UTC after the epoch is 4 days in.
const MONDAY_EPOCH = 4 * DAY;

// Offsets from Monday 00:00 UTC.
const FX_CLOSE = 4 * DAY + 22 * HOUR; // Friday 22:00
const FX_OPEN = 6 * DAY + 22 * HOUR; // Sunday 22:00
const INDEX_OPEN = 13 * HOUR + 30 * MINUTE;
const INDEX_CLOSE = 20 * HOUR;
const INDEX_DAYS = 5; // Monday..Friday

/** Splits `ts` into the start of its week (Monday 00:00 UTC) and the offset within it. */
function weekOf(ts: number): { start: number; offset: number } {
  // A true modulo, so instants before the first Monday (or the epoch) still land in [0, WEEK).
  const offset = (((ts - MONDAY_EPOCH) % WEEK) + WEEK) % WEEK;
  return { start: ts - offset, offset };
}

function assertTime(ts: number): void {
  if (!Number.isFinite(ts)) throw new RangeError(`timestamp must be finite, got ${ts}`);
}

/**
 * Whether the calendar is open at `ts`. Opening instants are inside the session, closing
 * instants outside it (sessions are half-open intervals [open, close)).
 *
 * @param calendar the product's calendar
 * @param ts epoch milliseconds
 */
export function isOpen(calendar: TradingCalendar, ts: number): boolean {
  assertTime(ts);
  switch (calendar) {
    case 'crypto':
      return true;
    case 'fx': {
      const { offset } = weekOf(ts);
      return offset < FX_CLOSE || offset >= FX_OPEN;
    }
    case 'index': {
      const { offset } = weekOf(ts);
      const day = Math.floor(offset / DAY);
      const time = offset - day * DAY;
      return day < INDEX_DAYS && time >= INDEX_OPEN && time < INDEX_CLOSE;
    }
  }
}

/**
 * The next opening instant after `ts`, or `null` when the calendar is open at `ts` (a product
 * that is open has nothing to wait for; crypto is therefore always `null`).
 *
 * @param calendar the product's calendar
 * @param ts epoch milliseconds
 * @returns epoch milliseconds of the opening, or `null`
 */
export function nextOpen(calendar: TradingCalendar, ts: number): number | null {
  if (isOpen(calendar, ts)) return null;
  const { start, offset } = weekOf(ts);
  switch (calendar) {
    case 'crypto':
      return null;
    case 'fx':
      // Closed means Friday 22:00 ≤ offset < Sunday 22:00: this week's Sunday opening.
      return start + FX_OPEN;
    case 'index': {
      const day = Math.floor(offset / DAY);
      const time = offset - day * DAY;
      // Before the bell on a weekday: today. After it on Monday–Thursday: tomorrow.
      if (day < INDEX_DAYS && time < INDEX_OPEN) return start + day * DAY + INDEX_OPEN;
      if (day < INDEX_DAYS - 1) return start + (day + 1) * DAY + INDEX_OPEN;
      // Friday evening and the weekend: next Monday.
      return start + WEEK + INDEX_OPEN;
    }
  }
}

/**
 * The next closing instant strictly after `ts`: the end of the current session when open, or
 * the end of the next session when closed (so a scheduler always knows the next change after
 * the coming opening too). `null` for a calendar that never closes.
 *
 * @param calendar the product's calendar
 * @param ts epoch milliseconds
 * @returns epoch milliseconds of the closing, or `null` for crypto
 */
export function nextClose(calendar: TradingCalendar, ts: number): number | null {
  assertTime(ts);
  const { start, offset } = weekOf(ts);
  switch (calendar) {
    case 'crypto':
      return null;
    case 'fx':
      // Before Friday 22:00 it is this week's; from then on (closed, or open since Sunday 22:00)
      // it is next week's.
      return offset < FX_CLOSE ? start + FX_CLOSE : start + WEEK + FX_CLOSE;
    case 'index': {
      const day = Math.floor(offset / DAY);
      const time = offset - day * DAY;
      if (day < INDEX_DAYS && time < INDEX_CLOSE) return start + day * DAY + INDEX_CLOSE;
      if (day < INDEX_DAYS - 1) return start + (day + 1) * DAY + INDEX_CLOSE;
      return start + WEEK + INDEX_CLOSE;
    }
  }
}
