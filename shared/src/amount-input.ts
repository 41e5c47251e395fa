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

/** The most digits typed before the decimal point: beyond any bound, short of float trouble. */
const WHOLE_DIGITS = 12;

/**
 * What a money field keeps as it is typed (issue 37): digits and one decimal point (a comma, as
 * German and French keypads offer, is one), leading zeros dropped. Unlike the spec's rule above,
 * nothing is clamped or cut: an amount out of bounds or with three decimals stays as typed and is
 * named by `checkTypedAmount`, so the trader sees why, not a different number.
 */
export function cleanAmountInput(raw: string): string {
  let s = raw.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const dot = s.indexOf('.');
  if (dot !== -1) s = s.slice(0, dot + 1) + s.slice(dot + 1).replace(/\./g, '');
  if (s.startsWith('.')) s = `0${s}`;
  s = s.replace(/^0+(?=\d)/, '');
  const [whole = '', ...rest] = s.split('.');
  return whole.slice(0, WHOLE_DIGITS) + (rest.length > 0 ? `.${rest.join('')}` : '');
}

/** The bounds an amount is checked against, minor units; `balance` null while unknown. */
export interface AmountLimits {
  min: number;
  max: number;
  balance: number | null;
}

/** What is wrong with a typed amount, first found first: decimals, minimum, maximum, balance. */
export type AmountProblem = 'decimals' | 'min' | 'max' | 'balance';

export type TypedAmount =
  | { state: 'empty' }
  | { state: 'invalid'; problem: AmountProblem; limit: number }
  | { state: 'valid'; amount: number };

/** The most decimals a money amount has (minor units are cents). */
export const AMOUNT_DECIMALS = 2;

/**
 * Checks an amount as it is typed (issue 37: said inline, before any button): `empty` while
 * nothing complete is typed (no message yet), else the first problem with the limit it broke
 * (minor units; for `decimals`, how many are allowed), else the amount in minor units.
 */
export function checkTypedAmount(input: string, limits: AmountLimits): TypedAmount {
  const s = input.trim();
  if (!/^\d+(\.\d*)?$/.test(s)) return { state: 'empty' };
  const [whole = '', frac = ''] = s.split('.');
  if (frac.length > AMOUNT_DECIMALS)
    return { state: 'invalid', problem: 'decimals', limit: AMOUNT_DECIMALS };
  const amount = Number(whole) * 100 + Number(frac.padEnd(AMOUNT_DECIMALS, '0'));
  if (amount < limits.min) return { state: 'invalid', problem: 'min', limit: limits.min };
  if (amount > limits.max) return { state: 'invalid', problem: 'max', limit: limits.max };
  if (limits.balance !== null && amount > limits.balance)
    return { state: 'invalid', problem: 'balance', limit: limits.balance };
  return { state: 'valid', amount };
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
