import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@server/config';
import {
  addDays,
  cutoffOf,
  dailyIncome,
  parseRate,
  platformDay,
  savingsPolicy,
} from './savings.policy';

describe('savings policy', () => {
  it('reads the rate exactly and pays rate / 365 a day, rounded down to the cent', () => {
    expect(parseRate('0.0365')).toEqual({ num: 365n, den: 10_000n });
    expect(parseRate('1')).toEqual({ num: 1n, den: 1n });
    const rate = parseRate('0.0365');
    expect(dailyIncome(100_000, rate)).toBe(10); // 1 000.00 → 0.10
    expect(dailyIncome(99_999, rate)).toBe(9);
    expect(dailyIncome(0, rate)).toBe(0);
    // Past 2^53 / 365 a float product would round; the BigInt one does not.
    expect(dailyIncome(Number.MAX_SAFE_INTEGER, parseRate('0.99999999'))).toBe(
      Number((BigInt(Number.MAX_SAFE_INTEGER) * 99_999_999n) / (100_000_000n * 365n)),
    );
  });

  it('agrees with the plain formula on every whole balance and rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 11 }),
        fc.integer({ min: 0, max: 9999 }),
        (b, bp) => {
          const rate = parseRate(`0.${String(bp).padStart(4, '0')}`);
          expect(dailyIncome(b, rate)).toBe(Math.floor((b * bp) / (10_000 * 365)));
        },
      ),
    );
  });

  it('counts days and cut-offs in the platform time zone', () => {
    const utc8 = { offsetMinutes: 480 };
    // 2026-01-01 23:30 in UTC+8 is 15:30 UTC.
    const t = Date.UTC(2026, 0, 1, 15, 30);
    expect(platformDay(t, utc8)).toBe('2026-01-01');
    expect(platformDay(t + 30 * 60_000, utc8)).toBe('2026-01-02');
    expect(cutoffOf('2026-01-01', utc8)).toBe(Date.UTC(2026, 0, 1, 16));
    expect(cutoffOf('2026-01-01', { offsetMinutes: 0 })).toBe(Date.UTC(2026, 0, 2));
    expect(platformDay(Date.UTC(2026, 0, 2, 3), { offsetMinutes: -300 })).toBe('2026-01-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('takes its figures from the configuration, which refuses bad ones by name', () => {
    const p = savingsPolicy(loadConfig({}));
    expect(p).toMatchObject({ annualRate: '0.0365', dailyIn: 3, dailyOut: 3, offsetMinutes: 0 });
    expect(() => loadConfig({ SAVINGS_ANNUAL_RATE: '3.65%', SAVINGS_DAILY_IN: '-1' })).toThrow(
      /SAVINGS_DAILY_IN="-1"[\s\S]*SAVINGS_ANNUAL_RATE="3.65%"/,
    );
    expect(() => loadConfig({ SAVINGS_ANNUAL_RATE: '1.5' })).toThrow(/SAVINGS_ANNUAL_RATE/);
  });
});
