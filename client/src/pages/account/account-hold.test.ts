import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HOLD_HOURS,
  formatHoldLeft,
  holdHours,
  holdLeftMs,
  isOnHold,
  msToNextSecond,
} from './account-hold';

const HOUR = 3_600_000;

describe("a new withdrawal account's hold", () => {
  it('counts down in hours, minutes and seconds, rounding the second up', () => {
    expect(formatHoldLeft(24 * HOUR)).toBe('24:00:00');
    expect(formatHoldLeft(23 * HOUR + 14 * 60_000 + 5_000)).toBe('23:14:05');
    expect(formatHoldLeft(23 * HOUR + 14 * 60_000 + 4_001)).toBe('23:14:05');
    expect(formatHoldLeft(59_000)).toBe('00:00:59');
    expect(formatHoldLeft(1)).toBe('00:00:01');
    expect(formatHoldLeft(0)).toBe('00:00:00');
    expect(formatHoldLeft(-5_000)).toBe('00:00:00');
  });

  it('is on until its usableAt, on the clock it is given (the server clock)', () => {
    const account = { usableAt: 1_000_000 };
    expect(isOnHold(account, 999_999)).toBe(true);
    expect(isOnHold(account, 1_000_000)).toBe(false);
    expect(isOnHold(account, 2_000_000)).toBe(false);
    expect(holdLeftMs(1_000_000, 400_000)).toBe(600_000);
    expect(holdLeftMs(1_000_000, 1_400_000)).toBe(0);
  });

  it('schedules the next repaint when the shown second changes, and none once over', () => {
    expect(msToNextSecond(10_000, 7_250)).toBe(750);
    expect(msToNextSecond(10_000, 7_000)).toBe(1000);
    expect(msToNextSecond(10_000, 10_000)).toBe(Infinity);
    expect(msToNextSecond(10_000, 12_000)).toBe(Infinity);
  });

  it("states the hold's length from an account on hold, else the default", () => {
    expect(holdHours([{ createdAt: 0, usableAt: 24 * HOUR }])).toBe(24);
    expect(
      holdHours([
        { createdAt: 5, usableAt: 5 },
        { createdAt: 0, usableAt: 48 * HOUR },
      ]),
    ).toBe(48);
    expect(holdHours([{ createdAt: 5, usableAt: 5 }])).toBe(DEFAULT_HOLD_HOURS);
    expect(holdHours([])).toBe(DEFAULT_HOLD_HOURS);
  });
});
