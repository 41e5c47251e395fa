import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  amountToDecimal,
  changePct,
  lotsToDecimal,
  MAX_PRECISION,
  priceToUnits,
  unitsToPrice,
} from './price';

const precisions = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const safeInt = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

/** Reference: the percentage to 2 decimals, half away from zero, by long division on strings. */
function refChangePct(open: number, last: number): string {
  if (open === 0) return '0.00';
  const num = (BigInt(last) - BigInt(open)) * 10000n;
  const den = BigInt(open);
  const q = num / den; // truncated
  const r = num % den;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  const negative = num < 0n !== den < 0n;
  const mag = abs(q) + (2n * abs(r) >= abs(den) ? 1n : 0n);
  const str = mag.toString().padStart(3, '0');
  const body = `${str.slice(0, -2)}.${str.slice(-2)}`;
  return negative && mag !== 0n ? `-${body}` : body;
}

describe('priceToUnits / unitsToPrice', () => {
  it('parses and formats the documented examples', () => {
    expect(priceToUnits('67012.35', 2)).toBe(6701235);
    expect(unitsToPrice(6701235, 2)).toBe('67012.35');
    expect(priceToUnits('1.5', 2)).toBe(150);
    expect(priceToUnits('1', 2)).toBe(100);
    expect(priceToUnits('007.50', 2)).toBe(750);
    expect(priceToUnits('-0.05', 2)).toBe(-5);
    expect(unitsToPrice(-5, 2)).toBe('-0.05');
    expect(unitsToPrice(0, 2)).toBe('0.00');
    expect(unitsToPrice(-0, 2)).toBe('0.00');
    expect(unitsToPrice(150, 0)).toBe('150');
    expect(unitsToPrice(-150, 0)).toBe('-150');
    expect(unitsToPrice(1, 8)).toBe('0.00000001');
    expect(unitsToPrice(-123456789, 8)).toBe('-1.23456789');
  });

  it('reads "-0" as 0, never -0', () => {
    expect(Object.is(priceToUnits('-0', 2), 0)).toBe(true);
    expect(Object.is(priceToUnits('-0.00', 2), 0)).toBe(true);
  });

  it.each([
    ['', 2],
    ['1.234', 2],
    ['1.50', 1],
    ['1.0', 0],
    ['1e5', 2],
    [' 1', 2],
    ['1 ', 2],
    ['abc', 2],
    ['1.', 2],
    ['.5', 2],
    ['+1', 2],
    ['-', 2],
    ['--1', 2],
    ['1,5', 2],
    ['1_000', 2],
    ['0x10', 2],
    ['Infinity', 2],
    ['NaN', 2],
    ['1.2.3', 2],
    ['١٢', 2], // non-ASCII digits
  ])('rejects %j at precision %i', (price, precision) => {
    expect(() => priceToUnits(price, precision)).toThrow(RangeError);
  });

  it('rejects values beyond the safe integer range, accepts the edge', () => {
    expect(priceToUnits('90071992547409.91', 2)).toBe(Number.MAX_SAFE_INTEGER);
    expect(priceToUnits('-90071992547409.91', 2)).toBe(-Number.MAX_SAFE_INTEGER);
    expect(() => priceToUnits('90071992547409.92', 2)).toThrow(RangeError);
    expect(() => priceToUnits('1'.repeat(400), 0)).toThrow(RangeError);
    expect(() => unitsToPrice(Number.MAX_SAFE_INTEGER + 1, 2)).toThrow(RangeError);
    expect(() => unitsToPrice(1.5, 2)).toThrow(RangeError);
    expect(() => unitsToPrice(Number.NaN, 2)).toThrow(RangeError);
  });

  it('rejects a bad precision', () => {
    for (const p of [-1, 1.5, MAX_PRECISION + 1, Number.NaN]) {
      expect(() => priceToUnits('1', p)).toThrow(RangeError);
      expect(() => unitsToPrice(1, p)).toThrow(RangeError);
    }
  });

  it('round-trips units → string → units for every precision 0..8', () => {
    fc.assert(
      fc.property(safeInt, fc.constantFrom(...precisions), (units, p) => {
        const s = unitsToPrice(units, p);
        expect(s).toMatch(p === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${p}}$`));
        expect(priceToUnits(s, p)).toBe(units);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips canonical strings → units → string, and pads short decimals', () => {
    const digits = (min: number, max: number) =>
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max });
    fc.assert(
      fc.property(
        fc.constantFrom(...precisions),
        fc.boolean(),
        digits(1, 7),
        digits(0, 8),
        (p, negative, intDigits, fracDigits) => {
          const frac = fracDigits.slice(0, p).join('');
          const int = String(Number(intDigits.join(''))); // no leading zeros
          const text = `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
          const units = priceToUnits(text, p);
          const canonical = `${int}${p > 0 ? `.${frac.padEnd(p, '0')}` : ''}`;
          const isZero = /^[0.]*$/.test(canonical);
          expect(unitsToPrice(units, p)).toBe(negative && !isZero ? `-${canonical}` : canonical);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('changePct', () => {
  it('handles the tricky values exactly', () => {
    expect(changePct(0, 123)).toBe('0.00');
    expect(changePct(100, 100)).toBe('0.00');
    expect(changePct(10000, 10123)).toBe('1.23');
    expect(changePct(200, 199)).toBe('-0.50');
    expect(changePct(3, 4)).toBe('33.33');
    expect(changePct(3, 5)).toBe('66.67');
    expect(changePct(3, 2)).toBe('-33.33');
    // Exactly half a hundredth: away from zero, where float toFixed would say "1.00".
    expect(changePct(20000, 20201)).toBe('1.01');
    expect(changePct(20000, 19799)).toBe('-1.01');
    expect(changePct(20000, 20001)).toBe('0.01'); // 0.005 %
    expect(changePct(20000, 19999)).toBe('-0.01');
    // Just below half rounds toward zero, and a tiny loss is "0.00", not "-0.00".
    expect(changePct(20001, 20002)).toBe('0.00');
    expect(changePct(20001, 20000)).toBe('0.00');
    expect(changePct(1, 0)).toBe('-100.00');
    expect(changePct(1, Number.MAX_SAFE_INTEGER)).toBe('900719925474099000.00');
    expect(changePct(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 1)).toBe('0.00');
  });

  it('handles negative prices by sign', () => {
    expect(changePct(-100, -50)).toBe('-50.00'); // (−50 − −100) / −100
    expect(changePct(-100, 50)).toBe('-150.00');
  });

  it('agrees with a long-division reference', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        (open, last) => {
          expect(changePct(open, last)).toBe(refChangePct(open, last));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('rejects unsafe inputs', () => {
    expect(() => changePct(1.5, 2)).toThrow(RangeError);
    expect(() => changePct(1, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('lotsToDecimal', () => {
  it('multiplies exactly, keeping the lot size decimals', () => {
    expect(lotsToDecimal(12345, '0.0001')).toBe('1.2345');
    expect(lotsToDecimal(10000, '0.0001')).toBe('1.0000');
    expect(lotsToDecimal(0, '0.01')).toBe('0.00');
    expect(lotsToDecimal(3, '10')).toBe('30');
    expect(lotsToDecimal(7, '0.25')).toBe('1.75');
    expect(lotsToDecimal(-3, '0.001')).toBe('-0.003');
    expect(lotsToDecimal(10n ** 30n, '0.1')).toBe(`${'1'.padEnd(30, '0')}.0`);
  });

  it('rejects bad lot sizes and unsafe numbers', () => {
    for (const bad of ['', '0', '0.000', '-1', '.1', '1.', '1e-4', ' 1']) {
      expect(() => lotsToDecimal(1, bad)).toThrow(RangeError);
    }
    expect(() => lotsToDecimal(1.5, '1')).toThrow(RangeError);
    expect(() => lotsToDecimal(2 ** 53, '1')).toThrow(RangeError);
  });
});

describe('amountToDecimal', () => {
  it('computes Σ price × qty in quote with 2 decimals, rounded down', () => {
    // 2 lots of 0.5 at 100.25 (precision 2): 100.25 × 1 = 100.25.
    expect(amountToDecimal(10025n * 2n, 2, '0.5')).toBe('100.25');
    // 1 lot of 0.0001 BTC at 67012.35: 6.701235 → "6.70".
    expect(amountToDecimal(6701235n, 2, '0.0001')).toBe('6.70');
    // 0.019999 → "0.01" (down, not nearest).
    expect(amountToDecimal(19999n, 6, '1')).toBe('0.01');
    expect(amountToDecimal(0n, 5, '0.001')).toBe('0.00');
    expect(amountToDecimal(12n, 0, '10')).toBe('120.00');
    expect(amountToDecimal(-1n, 2, '0.1')).toBe('-0.01'); // toward −∞
    expect(amountToDecimal(10n ** 40n, 0, '1')).toBe(`${'1'.padEnd(41, '0')}.00`);
  });

  it('equals the exact rational floor', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.constantFrom(...precisions),
        fc.constantFrom('1', '0.1', '0.0001', '0.00000001', '2.5', '100'),
        (sum, p, lotSize) => {
          const [i = '', f = ''] = lotSize.split('.');
          const exact = (sum * BigInt(i + f) * 100n) / 10n ** BigInt(p + f.length);
          const s = amountToDecimal(sum, p, lotSize);
          expect(BigInt(s.replace('.', ''))).toBe(exact);
          expect(s).toMatch(/^\d+\.\d{2}$/);
        },
      ),
      { numRuns: 300 },
    );
  });
});
