import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { isOpen, nextClose, nextOpen, type TradingCalendar } from './calendar';

// 2026-11-16 is a Monday, 2026-11-20 a Friday; all times UTC.
const at = (day: number, h: number, m = 0, s = 0, ms = 0): number =>
  Date.UTC(2026, 10, day, h, m, s, ms);
const MON = 16;
const THU = 19;
const FRI = 20;
const SAT = 21;
const SUN = 22;
const NEXT_MON = 23;

describe('crypto calendar', () => {
  it('is always open, with no opening to wait for and no close', () => {
    for (const ts of [at(SAT, 12), at(SUN, 3), at(FRI, 22), at(MON, 0), 0, -1]) {
      expect(isOpen('crypto', ts)).toBe(true);
      expect(nextOpen('crypto', ts)).toBeNull();
      expect(nextClose('crypto', ts)).toBeNull();
    }
  });
});

describe('fx calendar (forex, metals, energy)', () => {
  it('closes at Friday 22:00 and reopens at Sunday 22:00', () => {
    expect(isOpen('fx', at(FRI, 21, 59, 59, 999))).toBe(true);
    expect(isOpen('fx', at(FRI, 22))).toBe(false);
    expect(isOpen('fx', at(SAT, 0))).toBe(false);
    expect(isOpen('fx', at(SAT, 12))).toBe(false);
    expect(isOpen('fx', at(SUN, 21, 59, 59, 999))).toBe(false);
    expect(isOpen('fx', at(SUN, 22))).toBe(true);
    expect(isOpen('fx', at(MON, 0))).toBe(true);
    expect(isOpen('fx', at(THU, 23, 30))).toBe(true);
  });

  it('gives the Sunday 22:00 opening while closed, null while open', () => {
    expect(nextOpen('fx', at(SAT, 12))).toBe(at(SUN, 22));
    expect(nextOpen('fx', at(FRI, 22))).toBe(at(SUN, 22));
    expect(nextOpen('fx', at(SUN, 21, 59, 59, 999))).toBe(at(SUN, 22));
    expect(nextOpen('fx', at(SUN, 22))).toBeNull();
    expect(nextOpen('fx', at(FRI, 21, 59, 59, 999))).toBeNull();
  });

  it('gives the next Friday 22:00 close', () => {
    expect(nextClose('fx', at(MON, 9))).toBe(at(FRI, 22));
    expect(nextClose('fx', at(FRI, 21, 59, 59, 999))).toBe(at(FRI, 22));
    // From the close itself and through the weekend: the close after the coming opening.
    expect(nextClose('fx', at(FRI, 22))).toBe(at(FRI + 7, 22));
    expect(nextClose('fx', at(SAT, 12))).toBe(at(FRI + 7, 22));
    expect(nextClose('fx', at(SUN, 22))).toBe(at(FRI + 7, 22));
  });
});

describe('index calendar', () => {
  it('trades weekdays 13:30 ≤ t < 20:00', () => {
    expect(isOpen('index', at(FRI, 13, 29, 59, 999))).toBe(false);
    expect(isOpen('index', at(FRI, 13, 30))).toBe(true);
    expect(isOpen('index', at(FRI, 19, 59, 59, 999))).toBe(true);
    expect(isOpen('index', at(FRI, 20))).toBe(false);
    expect(isOpen('index', at(MON, 13, 30))).toBe(true);
    expect(isOpen('index', at(MON, 3))).toBe(false);
    expect(isOpen('index', at(SAT, 15))).toBe(false);
    expect(isOpen('index', at(SUN, 15))).toBe(false);
  });

  it('gives the next 13:30 on a weekday', () => {
    expect(nextOpen('index', at(FRI, 20))).toBe(at(NEXT_MON, 13, 30));
    expect(nextOpen('index', at(SAT, 12))).toBe(at(NEXT_MON, 13, 30));
    expect(nextOpen('index', at(SUN, 23, 59))).toBe(at(NEXT_MON, 13, 30));
    expect(nextOpen('index', at(MON, 0))).toBe(at(MON, 13, 30));
    expect(nextOpen('index', at(FRI, 13, 29, 59, 999))).toBe(at(FRI, 13, 30));
    expect(nextOpen('index', at(THU, 20))).toBe(at(FRI, 13, 30));
    expect(nextOpen('index', at(FRI, 15))).toBeNull();
  });

  it('gives the next 20:00 close on a weekday', () => {
    expect(nextClose('index', at(FRI, 15))).toBe(at(FRI, 20));
    expect(nextClose('index', at(FRI, 19, 59, 59, 999))).toBe(at(FRI, 20));
    expect(nextClose('index', at(MON, 1))).toBe(at(MON, 20));
    expect(nextClose('index', at(THU, 20))).toBe(at(FRI, 20));
    expect(nextClose('index', at(FRI, 20))).toBe(at(NEXT_MON, 20));
    expect(nextClose('index', at(SAT, 12))).toBe(at(NEXT_MON, 20));
  });
});

describe('calendar invariants', () => {
  const calendars: TradingCalendar[] = ['fx', 'index'];
  // Any instant from 1969 to 2100, including some before the epoch and its first Monday.
  const instant = fc.integer({ min: Date.UTC(1969, 0, 1), max: Date.UTC(2100, 0, 1) });

  it('nextOpen is the first open instant; nextClose the first closed one', () => {
    fc.assert(
      fc.property(fc.constantFrom(...calendars), instant, (calendar, ts) => {
        const open = nextOpen(calendar, ts);
        if (isOpen(calendar, ts)) {
          expect(open).toBeNull();
        } else {
          expect(open).not.toBeNull();
          expect(open!).toBeGreaterThan(ts);
          expect(isOpen(calendar, open!)).toBe(true);
          expect(isOpen(calendar, open! - 1)).toBe(false);
          // Closed for the whole wait (spot-check the middle).
          expect(isOpen(calendar, Math.floor((ts + open!) / 2))).toBe(false);
        }
        const close = nextClose(calendar, ts)!;
        expect(close).toBeGreaterThan(ts);
        expect(isOpen(calendar, close)).toBe(false);
        expect(isOpen(calendar, close - 1)).toBe(true);
        // At most a week away.
        expect(close - ts).toBeLessThanOrEqual(7 * 86_400_000);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a non-finite timestamp', () => {
    expect(() => isOpen('fx', Number.NaN)).toThrow(RangeError);
    expect(() => nextClose('index', Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
