/**
 * The spec's amount-input rule (§5): keep digits and one dot, at most 2 decimals; a value of zero
 * or less becomes 1; above the maximum (default 999 999) becomes the maximum. Applied as the user
 * types, so an unfinished entry ("12.", "") is left as typed.
 */
export const AMOUNT_MAX = 999_999;

export function sanitizeAmountInput(raw: string, max = AMOUNT_MAX): string {
  let s = raw.replace(/[^\d.]/g, '');
  const dot = s.indexOf('.');
  if (dot !== -1)
    s =
      s.slice(0, dot + 1) +
      s
        .slice(dot + 1)
        .replace(/\./g, '')
        .slice(0, 2);
  if (s === '' || s === '.' || s.endsWith('.')) return s;
  if (s.startsWith('.')) s = `0${s}`;
  s = s.replace(/^0+(?=\d)/, '');
  const value = Number(s);
  if (value <= 0) return s.includes('.') && /\.0{0,1}$/.test(s) ? s : '1';
  if (value > max) return String(max);
  return s;
}

/** The amount in minor units (cents) of a sanitised input, or null when it is not a complete amount. */
export function amountToMinor(input: string): number | null {
  if (!/^\d+(\.\d{1,2})?$/.test(input)) return null;
  const [whole, frac = ''] = input.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** Minor units as a plain decimal string with 2 decimals: 1050 → "10.50". */
export function minorToDecimal(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The spec's generic helpers (§5), kept for forms that need them. */
export const validators = {
  userId: (s: string) => /^\w{6,12}$/.test(s),
  chineseName: (s: string) => /^[\u4e00-\u9fa5]{2,5}$/.test(s),
  chineseIdCard: (s: string) => /^(\d{15}|\d{17}[\dXx])$/.test(s),
  mainlandPhone: (s: string) => /^1\d{10}$/.test(s),
  checkCode: (s: string) => /^\d{4}$/.test(s),
  email: (s: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s),
};
