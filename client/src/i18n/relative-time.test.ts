import { describe, expect, it } from 'vitest';
import { formatRelativeTime, JUST_NOW_MS, nextChangeIn } from './relative-time';

const now = Date.UTC(2026, 5, 2, 12, 0, 0);
const minutes = (n: number) => n * 60_000;
const ago = (ms: number) => now - ms;

describe('relative times', () => {
  it('reads "just now" under 15 minutes, whatever the language, and for a clock slightly ahead', () => {
    for (const age of [0, minutes(1), JUST_NOW_MS - 1, -minutes(2)])
      expect(formatRelativeTime(ago(age), now, 'zh-CN', '刚刚')).toBe('刚刚');
  });

  it('then minutes, hours and days ago in the language, then the date', () => {
    expect(formatRelativeTime(ago(minutes(15)), now, 'en', 'just now')).toBe('15 minutes ago');
    expect(formatRelativeTime(ago(minutes(59)), now, 'zh-CN', '刚刚')).toBe('59分钟前');
    expect(formatRelativeTime(ago(minutes(180)), now, 'en', 'just now')).toBe('3 hours ago');
    expect(formatRelativeTime(ago(minutes(180)), now, 'de', 'gerade eben')).toBe('vor 3 Stunden');
    expect(formatRelativeTime(ago(minutes(60 * 26)), now, 'en', 'just now')).toBe('yesterday');
    expect(formatRelativeTime(ago(minutes(60 * 24 * 3)), now, 'ja', 'たった今')).toBe('3 日前');
    expect(formatRelativeTime(ago(minutes(60 * 24 * 3)), now, 'fr', 'à l’instant')).toBe(
      'il y a 3 jours',
    );
    expect(formatRelativeTime(Date.UTC(2026, 0, 15, 12), now, 'en', 'just now')).toBe(
      'Jan 15, 2026',
    );
  });

  it('says when the text next changes', () => {
    expect(nextChangeIn(ago(minutes(5)), now)).toBe(minutes(10));
    expect(nextChangeIn(ago(minutes(20) + 10_000), now)).toBe(50_000);
  });
});
