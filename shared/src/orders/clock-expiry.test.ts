import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLOCK_MARGIN_MS,
  CLOCK_MIN_LEFT_MS,
  clockExpiryAt,
  clockTerms,
  keepsClockRule,
} from './clock-expiry';

const bands = [
  { seconds: 30, rate: '0.80' },
  { seconds: 60, rate: '0.85' },
  { seconds: 120, rate: '0.88' },
  { seconds: 300, rate: '0.90' },
];
const at = (hh: number, mm: number, ss: number, ms = 0) => Date.UTC(2026, 11, 7, hh, mm, ss, ms);

describe('expiry at a clock time', () => {
  it('ends at the end of this minute or of the next one', () => {
    expect(clockExpiryAt('minute_end', at(14, 2, 17, 400))).toBe(at(14, 3, 0));
    expect(clockExpiryAt('next_minute_end', at(14, 2, 17, 400))).toBe(at(14, 4, 0));
    // On the minute itself, "this minute" is the whole minute ahead.
    expect(clockExpiryAt('minute_end', at(14, 2, 0))).toBe(at(14, 3, 0));
  });

  it('needs 30 s left (judged a second early), then takes the largest band not above the time left', () => {
    expect(clockTerms(bands, 'minute_end', at(14, 2, 29)).rung?.seconds).toBe(30); // 31 s − 1 s margin = 30 s: fits
    expect(clockTerms(bands, 'minute_end', at(14, 2, 29)).leftMs).toBe(31_000);
    expect(clockTerms(bands, 'minute_end', at(14, 2, 29, 1)).rung).toBeNull();
    expect(clockTerms(bands, 'minute_end', at(14, 2, 28)).rung?.seconds).toBe(30);
    expect(clockTerms(bands, 'minute_end', at(14, 2, 0)).rung?.seconds).toBe(30); // 59 s judged
    expect(clockTerms(bands, 'next_minute_end', at(14, 2, 0)).rung?.seconds).toBe(60); // 119 s
    expect(clockTerms(bands, 'next_minute_end', at(14, 2, 58, 999)).rung?.seconds).toBe(60);
    expect(clockTerms(bands.slice(1), 'minute_end', at(14, 2, 10)).rung).toBeNull(); // no 30 s band
  });

  it('never gives a band longer than the time left, nor less than 30 s left (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: at(0, 0, 0), max: at(23, 59, 59, 999) }),
        fc.constantFrom('minute_end' as const, 'next_minute_end' as const),
        (now, expiry) => {
          const t = clockTerms(bands, expiry, now);
          expect(t.expiresAt % 60_000).toBe(0);
          expect(t.expiresAt).toBeGreaterThan(now);
          if (!t.rung) {
            expect(t.leftMs - CLOCK_MARGIN_MS).toBeLessThan(CLOCK_MIN_LEFT_MS);
            return;
          }
          expect(t.rung.seconds * 1000).toBeLessThanOrEqual(t.leftMs - CLOCK_MARGIN_MS);
          // The largest such band: the next one up does not fit.
          const next = bands.find((b) => b.seconds > t.rung!.seconds);
          if (next) expect(next.seconds * 1000).toBeGreaterThan(t.leftMs - CLOCK_MARGIN_MS);
        },
      ),
    );
  });

  it('checks a recorded order against the rule', () => {
    const createdAt = at(14, 2, 17, 400);
    const expiresAt = at(14, 3, 0);
    expect(keepsClockRule({ createdAt, expiresAt, duration: 42 })).toBe(true);
    expect(keepsClockRule({ createdAt, expiresAt, duration: 43 })).toBe(false);
    expect(keepsClockRule({ createdAt, expiresAt: expiresAt + 1, duration: 42 })).toBe(false);
    expect(keepsClockRule({ createdAt: at(14, 2, 31), expiresAt, duration: 29 })).toBe(false);
  });
});
