import erfc from '@stdlib/math-base-special-erfc';
import ln from '@stdlib/math-base-special-ln';
import { winPayout } from '../rates';

/**
 * The early-close ("sell") value of an open order: a published formula with public inputs only
 * (docs/FAIRNESS.md, Early close). Under the simulator's published model, geometric Brownian
 * motion with no drift at the product's published annual volatility σ, with S the execution
 * tick's price, K the entry price and τ the time left in years:
 *
 *   d = (ln(S/K) − σ²τ/2) / (σ√τ),  P(up wins) = N(d),  P(down wins) = N(−d)
 *   value = floor(payout × P(win) × (1 − spread)), never above the payout
 *
 * P(draw) is taken as 0 while τ > 0 (a continuous price ends exactly on the entry with
 * probability 0). With σ√τ = 0 the outcome is known: a win pays the payout, a draw the stake
 * (both less the spread), a loss nothing.
 *
 * The same code runs on the server (the executed value), in the browser (the value shown) and in
 * `verify:orders` (the check): logarithm and normal tail come from stdlib's JavaScript ports of
 * FreeBSD's msun, not from the engine's Math.log/Math.exp, so every engine computes the same
 * double and the rounding down to the cent is the same everywhere.
 */

export const MS_PER_YEAR = 365.25 * 24 * 3600 * 1000;

/** The published spread: 5 % of the value, in basis points. */
export const DEFAULT_SELL_SPREAD_BP = 500;

export interface SellInputs {
  direction: 'up' | 'down';
  /** Stake, minor units. */
  amount: number;
  rateBp: number;
  /** Entry and execution prices in the same units (integers at the product's precision). */
  entryPrice: number;
  price: number;
  /** Expiry − the execution tick's time, ms (> 0 for a sell). */
  msLeft: number;
  /** The product's published annual volatility, e.g. 0.6 for 60 %. */
  annualVol: number;
  spreadBp: number;
}

/** The standard normal distribution function, N(x) = erfc(−x/√2) / 2. */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** P(the order finishes in the money) under the published model; see the module's comment. */
export function winProbability(i: Omit<SellInputs, 'amount' | 'rateBp' | 'spreadBp'>): number {
  const tau = Math.max(0, i.msLeft) / MS_PER_YEAR;
  const spread = i.annualVol * Math.sqrt(tau);
  if (!(spread > 0)) {
    if (i.price === i.entryPrice) return 0;
    return (i.direction === 'up') === i.price > i.entryPrice ? 1 : 0;
  }
  const d = (ln(i.price / i.entryPrice) - (i.annualVol * i.annualVol * tau) / 2) / spread;
  return normalCdf(i.direction === 'up' ? d : -d);
}

/** The sell value in minor units, rounded down, never above the payout of a win. */
export function sellValue(i: SellInputs): number {
  const payout = winPayout(i.amount, i.rateBp);
  const pWin = winProbability(i);
  const known = !(i.annualVol * Math.sqrt(Math.max(0, i.msLeft) / MS_PER_YEAR) > 0);
  const pDraw = known && i.price === i.entryPrice ? 1 : 0;
  const gross = payout * pWin + i.amount * pDraw;
  const net = Math.floor((gross * (10_000 - i.spreadBp)) / 10_000);
  return Math.max(0, Math.min(payout, net));
}
