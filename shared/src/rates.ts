/**
 * Rate arithmetic in basis points, without zod: the phone's first screen (the product list's
 * best rate) needs these and must not pull the request schemas of orders.ts with them.
 */

/** "0.85" → 8500 basis points. */
export function rateToBp(rate: string): number {
  const [whole = '0', frac = ''] = rate.split('.');
  return Number(whole) * 10_000 + Number(frac.padEnd(4, '0').slice(0, 4));
}

/** 8500 → "0.85" (at least two decimals). */
export function bpToRate(bp: number): string {
  const s = (bp / 10_000).toFixed(4).replace(/0{1,2}$/, '');
  return s;
}

/** What a win pays: the stake back plus stake × rate, rounded down to the cent. */
export const winPayout = (amount: number, rateBp: number) =>
  amount + Math.floor((amount * rateBp) / 10_000);
