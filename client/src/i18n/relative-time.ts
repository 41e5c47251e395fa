import { formatDate } from './format';

/** Under this age a time reads "just now" (seed spec §9). */
export const JUST_NOW_MS = 15 * 60_000;
const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
/** From this age on, a date reads better than "45 days ago". */
const DATE_FROM_MS = 30 * DAY_MS;

const formats = new Map<string, Intl.RelativeTimeFormat>();
function relativeFormat(lang: string): Intl.RelativeTimeFormat {
  let format = formats.get(lang);
  if (!format) {
    // 'auto': "yesterday" rather than "1 day ago", in every language.
    format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
    formats.set(lang, format);
  }
  return format;
}

/**
 * How long ago `ms` was, in `lang`: `justNow` under 15 minutes (a clock slightly ahead counts as
 * now too), then minutes, hours and days ago with Intl.RelativeTimeFormat, then the date.
 */
export function formatRelativeTime(ms: number, now: number, lang: string, justNow: string): string {
  const age = now - ms;
  if (age < JUST_NOW_MS) return justNow;
  if (age < HOUR_MS) return relativeFormat(lang).format(-Math.floor(age / 60_000), 'minute');
  if (age < DAY_MS) return relativeFormat(lang).format(-Math.floor(age / HOUR_MS), 'hour');
  if (age < DATE_FROM_MS) return relativeFormat(lang).format(-Math.floor(age / DAY_MS), 'day');
  return formatDate(ms, lang);
}

/** When the text of a time this old next changes, so a screen can refresh it just then. */
export function nextChangeIn(ms: number, now: number): number {
  const age = Math.max(0, now - ms);
  if (age < JUST_NOW_MS) return JUST_NOW_MS - age;
  if (age < HOUR_MS) return 60_000 - (age % 60_000);
  if (age < DAY_MS) return HOUR_MS - (age % HOUR_MS);
  return DAY_MS - (age % DAY_MS);
}
