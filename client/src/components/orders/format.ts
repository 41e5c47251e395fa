/**
 * Display formats of the order screens: rates, durations, tick times. Money goes through the
 * app's one money formatter, formatMoney / formatSignedMoney in i18n/format.ts.
 */
import { formatPrice, placeholder } from '@client/i18n/format';

const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang, options);
    formats.set(key, format);
  }
  return format;
}

const clocks = new Map<string, Intl.DateTimeFormat>();
function clockFormat(lang: string): Intl.DateTimeFormat {
  let format = clocks.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    clocks.set(lang, format);
  }
  return format;
}

/** "0.85" → "85%" (the language's way: "85 %" in French). */
export function formatRate(rate: string, lang: string): string {
  if (!/^\d+(\.\d+)?$/.test(rate)) return placeholder;
  return numberFormat(lang, { style: 'percent', maximumFractionDigits: 2 }).format(
    rate as Intl.StringNumericLiteral,
  );
}

/** A tick's time of day with seconds, 24-hour: "14:05:31". */
export function formatTickTime(ms: number, lang: string): string {
  return clockFormat(lang).format(ms);
}

/** "up" for gains, "down" for losses, "flat" for zero or unknown: picks colour and arrow. */
export function signOf(minor: number | null | undefined): 'up' | 'down' | 'flat' {
  if (minor == null || minor === 0) return 'flat';
  return minor > 0 ? 'up' : 'down';
}

/** A duration in the ticket's unit: whole minutes from 60 s on ("2 min"), else seconds ("30 s"). */
export function durationUnit(seconds: number): { unit: 'seconds' | 'minutes'; value: number } {
  return seconds >= 60 && seconds % 60 === 0
    ? { unit: 'minutes', value: seconds / 60 }
    : { unit: 'seconds', value: seconds };
}

/** A price string with exactly the decimals it carries (the product's precision): "67,012.35". */
export function formatPriceAsIs(price: string | null | undefined, lang: string): string {
  if (price == null) return placeholder;
  const dot = price.indexOf('.');
  return formatPrice(price, dot === -1 ? 0 : price.length - dot - 1, lang);
}
