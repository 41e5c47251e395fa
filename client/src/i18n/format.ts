/**
 * Numbers and dates for display, per language, with Intl. Prices and figures arrive as decimal
 * strings; Intl.NumberFormat formats such strings exactly (no float round-trip), so a price is
 * shown with exactly the product's decimals.
 */
import { minorToDecimal } from '@shared/amount-input';

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

// Lists re-render every second; building a formatter is far costlier than using one.
function numberFormat(lang: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang, options);
    numberFormats.set(key, format);
  }
  return format;
}

function dateFormat(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, options);
    dateFormats.set(key, format);
  }
  return format;
}

const DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Shown where a figure is unknown (no tick yet, no data). */
export const placeholder = '--';

function asDecimal(value: string): Intl.StringNumericLiteral | null {
  return DECIMAL_RE.test(value) ? (value as Intl.StringNumericLiteral) : null;
}

/** A price with exactly `precision` decimals and the language's grouping: "67,012.35". */
export function formatPrice(price: string | null | undefined, precision: number, lang: string) {
  const value = price == null ? null : asDecimal(price);
  if (value === null) return placeholder;
  return numberFormat(lang, {
    minimumFractionDigits: precision,
    maximumFractionDigits: precision,
  }).format(value);
}

/**
 * Money: minor units (integers) with exactly two decimals and the language's grouping, through a
 * decimal string, so no float touches an amount: 123456 → "1,234.56" (en), "1.234,56" (de).
 * Unknown → the placeholder. The app's one money formatter.
 */
export function formatMoney(minor: number | null | undefined, lang: string): string {
  if (minor == null || !Number.isSafeInteger(minor)) return placeholder;
  return formatPrice(minorToDecimal(minor), 2, lang);
}

/** Money with its sign, so gain and loss read without colour: "+800.00", "-1,000.00", "0.00". */
export function formatSignedMoney(minor: number | null | undefined, lang: string): string {
  if (minor == null || !Number.isSafeInteger(minor)) return placeholder;
  return numberFormat(lang, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'exceptZero',
  }).format(minorToDecimal(minor) as Intl.StringNumericLiteral);
}

/** A plain figure (volume, amount) with grouping and at most `maxDecimals` decimals. */
export function formatDecimal(value: string | null | undefined, lang: string, maxDecimals = 2) {
  const decimal = value == null ? null : asDecimal(value);
  if (decimal === null) return placeholder;
  return numberFormat(lang, { maximumFractionDigits: maxDecimals }).format(decimal);
}

/** A large figure shortened the language's way: "1.2M" in English, "120万" in Chinese. */
export function formatCompact(value: string | null | undefined, lang: string) {
  const decimal = value == null ? null : asDecimal(value);
  if (decimal === null) return placeholder;
  return numberFormat(lang, { notation: 'compact', maximumFractionDigits: 2 }).format(decimal);
}

/** "1.23" (per cent) → "0.0123" (a fraction), by moving the point: exact, no float. */
export function percentToFraction(pct: string): string | null {
  const m = DECIMAL_RE.exec(pct);
  if (!m) return null;
  const whole = (m[2] ?? '').padStart(3, '0');
  return `${m[1] ?? ''}${whole.slice(0, -2)}.${whole.slice(-2)}${m[3] ?? ''}`;
}

/**
 * A 24h change in per cent ("1.23", as on the wire) with an explicit sign, so the direction is
 * readable without colour: "+1.23%", "-0.50%", "0.00%"; the % placed the language's way.
 */
export function formatChangePct(pct: string | null | undefined, lang: string): string {
  const fraction = pct == null ? null : percentToFraction(pct);
  if (fraction === null) return placeholder;
  return numberFormat(lang, {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'exceptZero',
  }).format(fraction as Intl.StringNumericLiteral);
}

export type Direction = 'up' | 'down' | 'flat';

/** The sign of a decimal string; zero in any spelling ("0", "-0.00") is flat. */
export function directionOf(value: string | null | undefined): Direction {
  const m = value == null ? null : DECIMAL_RE.exec(value);
  if (!m) return 'flat';
  if (/^0*$/.test(`${m[2] ?? ''}${m[3] ?? ''}`)) return 'flat';
  return m[1] === '-' ? 'down' : 'up';
}

/** A whole number with the language's grouping: "1,234" / "1.234" / "1 234". */
export function formatInteger(value: number, lang: string): string {
  return Number.isFinite(value)
    ? numberFormat(lang, { maximumFractionDigits: 0 }).format(value)
    : placeholder;
}

/** A date in the language's style: "Jun 2, 2025" / "2025年6月2日". */
export function formatDate(ms: number, lang: string, timeZone?: string): string {
  return dateFormat(lang, { dateStyle: 'medium', timeZone }).format(ms);
}

/** Date and time in the language's style: "Jun 2, 2025, 22:00". */
export function formatDateTime(ms: number, lang: string, timeZone?: string): string {
  return dateFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(ms);
}

/** Time of day for chart labels and crosshair: "14:05". */
export function formatClock(ms: number, lang: string, withSeconds = false, timeZone?: string) {
  return dateFormat(lang, {
    hour: '2-digit',
    minute: '2-digit',
    second: withSeconds ? '2-digit' : undefined,
    hourCycle: 'h23',
    timeZone,
  }).format(ms);
}

/** Day and month for chart labels of daily candles: "Jun 2" / "6月2日". */
export function formatDay(ms: number, lang: string, timeZone?: string): string {
  return dateFormat(lang, { month: 'short', day: 'numeric', timeZone }).format(ms);
}
