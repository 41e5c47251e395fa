import { minorToDecimal } from '@shared/amount-input';

/**
 * Money for display: minor units (integers, DECISIONS.md "Money") shown with exactly two
 * decimals and the language's grouping. Intl formats the decimal string exactly, no float.
 */
const formats = new Map<string, Intl.NumberFormat>();

function moneyFormat(lang: string, signed: boolean): Intl.NumberFormat {
  const key = `${lang}|${signed}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      signDisplay: signed ? 'exceptZero' : 'auto',
    });
    formats.set(key, format);
  }
  return format;
}

/** 123456 → "1,234.56" (en) / "1.234,56" (de). */
export function formatMoney(minor: number, lang: string): string {
  return moneyFormat(lang, false).format(minorToDecimal(minor) as Intl.StringNumericLiteral);
}

/** A movement with its sign, so direction reads without colour: "+10.00", "-5.50", "0.00". */
export function formatSignedMoney(minor: number, lang: string): string {
  return moneyFormat(lang, true).format(minorToDecimal(minor) as Intl.StringNumericLiteral);
}

/** `quantity × rate` rounded down to the minor unit, as the server credits a USDT deposit. */
export function convertAtRate(quantity: number, rate: string): number {
  const [whole = '0', fraction = ''] = rate.split('.');
  const scale = 10n ** BigInt(fraction.length);
  return Number((BigInt(quantity) * BigInt(`${whole}${fraction}`)) / scale);
}

/** A fresh Idempotency-Key: 128 random bits as hex (getRandomValues works outside HTTPS too). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A card number or address shortened for a list: "6222 •••• 5678". */
export function maskTail(value: string, keep = 4): string {
  const plain = value.replace(/\s/g, '');
  if (plain.length <= keep * 2) return plain;
  return `${plain.slice(0, keep)} •••• ${plain.slice(-keep)}`;
}

/**
 * A card number as banks print it, in groups of four ("6222 0200 0000 0000 000"): easier to
 * read and type, and it wraps between groups on a narrow screen, never one digit alone.
 */
export const groupedDigits = (value: string): string =>
  /^[\dA-Z]+$/.test(value) ? (value.match(/[\dA-Z]{1,4}/g) ?? []).join(' ') : value;
