/**
 * The price model of one product (shared ARCHITECTURE.md, "Market data"): geometric Brownian
 * motion at the product's annual volatility, with volatility clustering and occasional jumps,
 * quantised to the tick size and fully deterministic for a seed.
 *
 * Prices are integer price units (price × 10^precision) so that nothing downstream ever rounds a
 * float: the sim formats them with `unitsToPrice` for the wire.
 */
import { priceToUnits } from '@shared/price';
import type { ProductSpec } from './catalogue';
import { createRng, deriveSeed, type Rng } from './rng';

/** One step of the model. */
export interface ModelStep {
  /** Integer price units, a multiple of the tick size, ≥ the tick size. */
  price: number;
  /** Lots traded on this tick: an integer ≥ 1. */
  qty: number;
}

/**
 * The model's whole hidden state between two ticks. Both are plain doubles; `String(x)` and
 * `Number(s)` round-trip them exactly, so a stored state resumes the very same path.
 */
export interface ModelState {
  /** The unquantised log price (price units). */
  logPrice: number;
  /** The log of the volatility multiplier (0 = calm average). */
  logVol: number;
}

/** The parameters of a product the model reads: what a verifier of the live feed needs. */
export type ModelSpec = Pick<
  ProductSpec,
  'id' | 'precision' | 'tickSize' | 'startPrice' | 'annualVol' | 'jumpsPerDay' | 'typicalLots'
>;

/** A running price model. */
export interface PriceModel {
  /**
   * Advances the model by `dtMs` milliseconds of trading time and returns the new tick. Draws
   * from `rng` when given (the live feed's keyed stream for this tick), else from the model's own
   * seeded stream.
   */
  next(dtMs: number, rng?: Rng): ModelStep;
  /** A copy of the state after the last step (or the start). */
  state(): ModelState;
  /** The current price in integer price units. */
  readonly price: number;
  /** How many jumps have happened so far (for tests and metrics; not part of the tape). */
  readonly jumps: number;
}

const MS_PER_DAY = 86_400_000;
// Volatility is quoted per calendar year; the sim steps in wall-clock time while a market is
// open, so a 24/7 market realises exactly its annual vol and others realise it per open hour.
const MS_PER_YEAR = 365.25 * MS_PER_DAY;

// Volatility clustering: the log of the volatility multiplier follows an Ornstein–Uhlenbeck
// process (a stochastic-volatility model with GARCH-like behaviour: calm and busy spells that
// last about an hour). It is normalised so the mean *variance* multiplier is 1, which keeps the
// realised volatility at the configured level over a long run, and clamped so that neither a
// frozen nor an exploding market can arise.
const VOL_HALF_LIFE_MS = 3_600_000;
const LOG_VOL_SD = 0.35;
const VOL_MULT_MIN = 0.25;
const VOL_MULT_MAX = 4;

// Jumps: each moves the log price by a normal draw whose standard deviation is a few sigma of a
// five-minute move, a visible spike on a 1-minute chart without wrecking the day. The diffusion is
// turned down by the variance the jumps add, so the total still matches `annualVol`.
const JUMP_SIGMAS = 3;
const JUMP_HORIZON_MS = 300_000;
const MIN_DIFFUSION_SHARE = 0.25;

// A very weak pull of the log price towards the catalogue's start price (half-life 90 days):
// invisible within a day, but it keeps a simulator that runs for months near real-world
// levels instead of letting DOGE drift to its tick floor or BTC to millions.
const ANCHOR_HALF_LIFE_MS = 90 * MS_PER_DAY;

// A hard band around the anchor (×/÷ 10 000) guarantees finite, safe-integer prices whatever the
// configuration; the anchor pull makes reaching it practically impossible with sane volatilities.
const BAND = Math.log(10_000);
const MAX_UNITS = Number.MAX_SAFE_INTEGER / 4;

// Lots per tick: lognormal around `typicalLots` (mean-one factor) and scaled by the current
// volatility multiplier, since busy markets trade more.
const QTY_LOG_SD = 0.8;

/**
 * Creates the price model of one product.
 *
 * The model draws from its own stream, `deriveSeed(seed, spec.id)`, so each product's path depends
 * only on the simulator seed and its id, never on the other products or the order they are
 * stepped in. The same (spec, seed, startUnits, sequence of `dtMs`) always gives the same ticks.
 *
 * Everything but the draws is a function of the published parameters (`ModelSpec`), the state
 * and `dtMs`, so a tick of the live feed can be recomputed from its period's secret, the state
 * at the period's start and the tape's times (fairness.ts).
 *
 * @param spec the product
 * @param seed the simulator-wide seed of the model's own stream (used when `next` gets no rng)
 * @param start the price to start from, in price units (a restarted seeded simulator passes the
 *   last recorded price; rounded to the tick size), or a whole stored state; defaults to
 *   `spec.startPrice` in a calm market.
 * @throws RangeError on an invalid spec or a non-positive / non-finite start
 */
export function createPriceModel(
  spec: ModelSpec,
  seed: number,
  start?: number | ModelState,
): PriceModel {
  const tick = spec.tickSize;
  if (!Number.isSafeInteger(tick) || tick < 1) {
    throw new RangeError(`${spec.id}: tickSize must be an integer ≥ 1, got ${tick}`);
  }
  if (!(spec.annualVol >= 0) || !Number.isFinite(spec.annualVol)) {
    throw new RangeError(`${spec.id}: annualVol must be finite and ≥ 0, got ${spec.annualVol}`);
  }
  if (!(spec.jumpsPerDay >= 0) || !Number.isFinite(spec.jumpsPerDay)) {
    throw new RangeError(`${spec.id}: jumpsPerDay must be finite and ≥ 0`);
  }
  if (!(spec.typicalLots >= 1) || !Number.isFinite(spec.typicalLots)) {
    throw new RangeError(`${spec.id}: typicalLots must be finite and ≥ 1`);
  }
  const anchorUnits = quantise(priceToUnits(spec.startPrice, spec.precision), tick);
  const own = createRng(deriveSeed(seed, spec.id));

  const logAnchor = Math.log(anchorUnits);
  // The band depends on the parameters only, never on where a run started, so a run resumed
  // from a stored state clamps exactly as the original would have.
  const logMin = Math.max(Math.log(tick), logAnchor - BAND);
  const logMax = Math.min(Math.log(MAX_UNITS), logAnchor + BAND);

  const sigma = spec.annualVol;
  const jumpSd = JUMP_SIGMAS * sigma * Math.sqrt(JUMP_HORIZON_MS / MS_PER_YEAR);
  const jumpVarPerYear = spec.jumpsPerDay * (MS_PER_YEAR / MS_PER_DAY) * jumpSd * jumpSd;
  const diffusionVar = Math.max(
    MIN_DIFFUSION_SHARE * sigma * sigma,
    sigma * sigma - jumpVarPerYear,
  );
  const diffusionSd = Math.sqrt(diffusionVar);

  const volRate = Math.LN2 / VOL_HALF_LIFE_MS;
  const anchorRate = Math.LN2 / ANCHOR_HALF_LIFE_MS;
  // E[exp(2h)] = exp(2·sd²) for h ~ N(0, sd²); subtracting sd² makes E[multiplier²] = 1.
  const logVolBias = LOG_VOL_SD * LOG_VOL_SD;

  // The unquantised state: rounding happens only on output, so moves smaller than a tick
  // accumulate instead of being rounded away step after step.
  let logPrice: number;
  let logVol = 0;
  if (typeof start === 'object') {
    if (!Number.isFinite(start.logPrice) || !Number.isFinite(start.logVol))
      throw new RangeError(`${spec.id}: a stored state must be finite`);
    logPrice = clamp(start.logPrice, logMin, logMax);
    logVol = start.logVol;
  } else {
    const initial = start === undefined ? anchorUnits : checkedStart(spec.id, start, tick);
    logPrice = clamp(Math.log(initial), logMin, logMax);
  }
  let price = quantise(Math.exp(logPrice), tick);
  let jumps = 0;

  const next = (dtMs: number, rng: Rng = own): ModelStep => {
    if (!Number.isFinite(dtMs) || dtMs < 0) {
      throw new RangeError(`${spec.id}: dtMs must be finite and ≥ 0, got ${dtMs}`);
    }
    // A fixed number of draws per step (plus the Poisson count) keeps replays simple to reason
    // about; dt = 0 still draws, and moves nothing.
    const zPrice = rng.normal();
    const zVol = rng.normal();
    const zQty = rng.normal();
    const nJumps = rng.poisson((spec.jumpsPerDay * dtMs) / MS_PER_DAY);
    const zJump = nJumps > 0 ? rng.normal() : 0;

    const volMult = clamp(Math.exp(logVol - logVolBias), VOL_MULT_MIN, VOL_MULT_MAX);
    const years = dtMs / MS_PER_YEAR;

    // Exact OU decay towards the anchor, then the diffusion. No −σ²/2 drift: the median price
    // stays put rather than the mean, which is what a chart-watcher would expect of no trend.
    const anchorDecay = Math.exp(-anchorRate * dtMs);
    logPrice = logAnchor + (logPrice - logAnchor) * anchorDecay;
    logPrice += diffusionSd * volMult * Math.sqrt(years) * zPrice;
    if (nJumps > 0) {
      // The sum of n independent N(0, jumpSd²) jumps is N(0, n·jumpSd²): one draw suffices.
      logPrice += jumpSd * Math.sqrt(nJumps) * zJump;
      jumps += nJumps;
    }
    logPrice = clamp(logPrice, logMin, logMax);

    // Exact OU step for the log-volatility, valid for any dt (a reopening after a weekend too).
    const volDecay = Math.exp(-volRate * dtMs);
    logVol = logVol * volDecay + LOG_VOL_SD * Math.sqrt(1 - volDecay * volDecay) * zVol;

    price = quantise(Math.exp(logPrice), tick);
    const qtyFactor = Math.exp(QTY_LOG_SD * zQty - (QTY_LOG_SD * QTY_LOG_SD) / 2);
    const qty = Math.max(1, Math.round(spec.typicalLots * volMult * qtyFactor));
    return { price, qty };
  };

  return {
    next,
    state: () => ({ logPrice, logVol }),
    get price() {
      return price;
    },
    get jumps() {
      return jumps;
    },
  };
}

function checkedStart(id: string, startUnits: number, tick: number): number {
  if (!Number.isFinite(startUnits) || startUnits <= 0 || startUnits > MAX_UNITS) {
    throw new RangeError(`${id}: startUnits must be a positive safe number, got ${startUnits}`);
  }
  return quantise(startUnits, tick);
}

/** Rounds to the nearest multiple of the tick, never below one tick. */
function quantise(units: number, tick: number): number {
  return Math.max(tick, Math.round(units / tick) * tick);
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
