/** Wallet helpers: USDT conversion, idempotency keys, masked and grouped account numbers. */
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
