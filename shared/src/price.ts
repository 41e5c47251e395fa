/**
 * Exact price arithmetic. A price travels as a decimal string at the product's precision
 * ("67012.35"); inside, it is an integer number of units (price × 10^precision, 6701235).
 * Quantities are integer lots of `lotSize` base units ("0.0001"). No floating point touches a
 * price: parsing and formatting go through strings and BigInt.
 *
 * Pure and dependency-free: used by the simulator, the server and the browser client.
 */

/** The largest precision accepted: 10^15 is the last power of ten below 2^53. */
export const MAX_PRECISION = 15;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Accepted price syntax: an optional leading '-', one or more digits, and optionally a '.'
 * followed by one or more digits. Leading zeros are allowed ("007.50"); "-0" is zero.
 * Rejected: "", "+1", ".5", "1.", "1e5", "1_000", "1,5", any whitespace, "Infinity", "NaN".
 */
const PRICE_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A non-negative decimal (lot sizes): digits, optionally '.' and digits. */
const UNSIGNED_DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;

function checkPrecision(precision: number): void {
  if (!Number.isInteger(precision) || precision < 0 || precision > MAX_PRECISION) {
    throw new RangeError(`precision must be an integer in 0..${MAX_PRECISION}: ${precision}`);
  }
}

/** Formats `value / 10^decimals` exactly, with exactly `decimals` decimals; never "-0". */
function formatScaled(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const cut = digits.length - decimals;
  const body = decimals === 0 ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`;
  return negative ? `-${body}` : body;
}

/** Floor division for BigInt (BigInt `/` truncates toward zero). `d` must be positive. */
function floorDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d < 0n ? q - 1n : q;
}

/** Parses a lot size ("0.0001") into an integer and its number of decimals; must be > 0. */
function parseLotSize(lotSize: string): { units: bigint; decimals: number } {
  const m = UNSIGNED_DECIMAL_RE.exec(lotSize);
  if (!m) throw new RangeError(`invalid lot size: ${JSON.stringify(lotSize)}`);
  const fraction = m[2] ?? '';
  const units = BigInt(`${m[1] ?? ''}${fraction}`);
  if (units === 0n) throw new RangeError(`lot size must be positive: ${JSON.stringify(lotSize)}`);
  return { units, decimals: fraction.length };
}

/**
 * Parses a decimal price string into integer units. Strict: see PRICE_RE for the syntax; at most
 * `precision` decimals (fewer are padded: "1.5" at precision 2 is 150; "1.50" at precision 1
 * is refused, trailing zero or not). Throws RangeError on bad syntax, too many decimals, a
 * precision outside 0..MAX_PRECISION, or a result beyond ±Number.MAX_SAFE_INTEGER.
 */
export function priceToUnits(price: string, precision: number): number {
  checkPrecision(precision);
  const m = PRICE_RE.exec(price);
  if (!m) throw new RangeError(`invalid price: ${JSON.stringify(price)}`);
  const fraction = m[3] ?? '';
  if (fraction.length > precision) {
    throw new RangeError(`price ${JSON.stringify(price)} has more than ${precision} decimals`);
  }
  const magnitude = BigInt(`${m[2] ?? ''}${fraction.padEnd(precision, '0')}`);
  if (magnitude > MAX_SAFE) {
    throw new RangeError(`price ${JSON.stringify(price)} is beyond the safe integer range`);
  }
  // BigInt has no negative zero, so "-0" and "-0.00" come out as 0.
  return Number(m[1] === '-' ? -magnitude : magnitude);
}

/**
 * Formats integer units as a decimal string with exactly `precision` decimals:
 * (-5, 2) → "-0.05", (0, 2) → "0.00", (150, 0) → "150". Throws RangeError when `units` is not
 * a safe integer or the precision is out of range.
 */
export function unitsToPrice(units: number, precision: number): string {
  checkPrecision(precision);
  if (!Number.isSafeInteger(units)) throw new RangeError(`units must be a safe integer: ${units}`);
  return formatScaled(BigInt(units), precision);
}

/**
 * (last − open) / open × 100 with two decimals, rounded half away from zero, computed exactly
 * in BigInt: (200, 201) → "0.50", (20000, 20201) → "1.01" (exactly 1.005). "0.00" when open
 * is 0, and never "-0.00". Inputs are units (any common scale) and must be safe integers.
 */
export function changePct(open: number, last: number): string {
  if (!Number.isSafeInteger(open) || !Number.isSafeInteger(last)) {
    throw new RangeError(`changePct needs safe integers: ${open}, ${last}`);
  }
  if (open === 0) return '0.00';
  // The result in hundredths of a percent: (last − open) × 10000 / open.
  const num = (BigInt(last) - BigInt(open)) * 10000n;
  const den = BigInt(open);
  const absNum = num < 0n ? -num : num;
  const absDen = den < 0n ? -den : den;
  const rounded = (2n * absNum + absDen) / (2n * absDen); // half away from zero, on magnitudes
  const negative = num < 0n !== den < 0n;
  return formatScaled(negative ? -rounded : rounded, 2);
}

/**
 * Base volume of `lots` lots: lots × lotSize, exact, with exactly lotSize's number of decimals
 * (nothing trimmed): (12345, "0.0001") → "1.2345", (0, "0.01") → "0.00", (3, "10") → "30".
 * Throws RangeError on a bad lot size (must be a positive plain decimal) or an unsafe number.
 */
export function lotsToDecimal(lots: bigint | number, lotSize: string): string {
  if (typeof lots === 'number' && !Number.isSafeInteger(lots)) {
    throw new RangeError(`lots must be a safe integer: ${lots}`);
  }
  const lot = parseLotSize(lotSize);
  return formatScaled(BigInt(lots) * lot.units, lot.decimals);
}

/**
 * Quote amount Σ price × quantity, given Σ (price units × lots), as a decimal string with two
 * decimals, exact, rounded down (toward −∞; amounts are normally ≥ 0, where this is truncation):
 * amount = Σ × lotSize / 10^precision.
 */
export function amountToDecimal(
  priceUnitsTimesLots: bigint,
  precision: number,
  lotSize: string,
): string {
  checkPrecision(precision);
  const lot = parseLotSize(lotSize);
  // Hundredths of the quote currency: Σ × lotUnits × 100 / 10^(precision + lotDecimals).
  const scale = 10n ** BigInt(precision + lot.decimals);
  return formatScaled(floorDiv(priceUnitsTimesLots * lot.units * 100n, scale), 2);
}
