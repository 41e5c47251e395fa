import { describe, expect, it } from 'vitest';
import { ServerClock } from '@client/streams/clock';
import { countdownText, formatCountdown, msToNextSecond, remainingMs } from './countdown';

describe('order countdown', () => {
  it('formats minutes and seconds, rounding up so 00:00 means expired', () => {
    expect(formatCountdown(30_000)).toBe('00:30');
    expect(formatCountdown(29_001)).toBe('00:30');
    expect(formatCountdown(29_000)).toBe('00:29');
    expect(formatCountdown(1)).toBe('00:01');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-5_000)).toBe('00:00');
    expect(formatCountdown(300_000)).toBe('05:00');
    expect(formatCountdown(3_600_000)).toBe('1:00:00');
    expect(formatCountdown(3_661_000)).toBe('1:01:01');
  });

  it('counts on the server clock, not the phone clock', () => {
    const expiresAt = 1_000_030_000; // server time
    // The phone is 3 minutes behind the server: its own clock reads 180 s less.
    const clock = new ServerClock();
    clock.sample({ sentAt: 999_820_000, receivedAt: 999_820_040, serverTime: 1_000_000_020 });
    const phoneNow = 999_820_000;
    expect(clock.now(phoneNow)).toBe(1_000_000_000);
    expect(countdownText(expiresAt, clock.now(phoneNow))).toBe('00:30');
    // The phone clock alone would claim 3:30 are left.
    expect(countdownText(expiresAt, phoneNow)).toBe('03:30');
    expect(countdownText(expiresAt, clock.now(phoneNow + 12_500))).toBe('00:18');
    expect(countdownText(expiresAt, clock.now(phoneNow + 30_000))).toBe('00:00');
  });

  it('never goes below zero', () => {
    expect(remainingMs(1000, 5000)).toBe(0);
    expect(remainingMs(5000, 1000)).toBe(4000);
  });

  it('schedules the next repaint when the shown second changes', () => {
    expect(msToNextSecond(30_000, 700)).toBe(300); // 29.3 s left shows 00:30 until 29.0
    expect(msToNextSecond(30_000, 1_000)).toBe(1_000);
    expect(msToNextSecond(30_000, 30_000)).toBe(Infinity);
  });
});
