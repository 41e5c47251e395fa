const stamps = new Map<string, Intl.DateTimeFormat>();

/**
 * The one time style of the order details: time of day to the millisecond, 24-hour
 * ("12:00:01.234"), so acceptance, expiry and the tape's ticks read against each other.
 */
export function formatStamp(ms: number, lang: string): string {
  let format = stamps.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
      hourCycle: 'h23',
    });
    stamps.set(lang, format);
  }
  return format.format(ms);
}
