/**
 * The provably fair live feed (docs/FAIRNESS.md).
 *
 * Each product's live randomness for each period comes from a fresh 256-bit secret drawn from the
 * operating system's CSPRNG. Before any tick of the period is made, the secret's SHA-256 (the
 * commitment) is stored and published; the secret itself is revealed once the period has ended
 * and every order that could depend on it has settled. A tick's draws are HMAC-SHA256 keyed by
 * the period's secret over the product id, the tick's sequence number and a block counter, so:
 * - nobody without the secret can predict a tick (HMAC is a pseudo-random function), and the
 *   secret space is 2^256, not a searchable seed;
 * - nobody, the operator included, can have changed a tick after the fact: given the revealed
 *   secret, the published model parameters, the period's start state and the tape's times, every
 *   price and quantity of the period is recomputed exactly (`replayTicks`), and the secret must
 *   hash to the commitment published before the period began.
 *
 * This module is pure (no database, no clock): the simulator, its restart and `verify:tape` all
 * use these functions, so what is checked is exactly what ran.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { priceToUnits } from '@shared/price';
import type { ProductSpec } from './catalogue';
import { createPriceModel, type ModelSpec, type ModelState } from './model';
import { rngFrom, type Rng } from './rng';

/** Version of the draw protocol and model; a verifier refuses periods of a version it does not know. */
export const FAIRNESS_VERSION = 1;

/** A fresh 256-bit period secret from the operating system's CSPRNG. */
export function newSecret(): Buffer {
  return randomBytes(32);
}

/** The published commitment to a secret: its SHA-256, hex. */
export function commitmentOf(secret: Buffer): string {
  return createHash('sha256').update(secret).digest('hex');
}

const TWO_POW_26 = 67_108_864;
const TWO_POW_53 = 9_007_199_254_740_992;

/**
 * The keyed stream of one tick: block i = HMAC-SHA256(secret, "<productId>:<seq>:<i>"), read as
 * eight big-endian 32-bit words; each uniform in [0, 1) takes two words, 53 bits:
 * ((w0 >>> 5) · 2^26 + (w1 >>> 6)) / 2^53. Normals, Bernoulli and Poisson draws follow `rngFrom`.
 */
export function keyedRng(secret: Buffer, productId: string, seq: number): Rng {
  let block = 0;
  let words: Uint32Array | null = null;
  let at = 8;
  const word = (): number => {
    if (at === 8) {
      const mac = createHmac('sha256', secret).update(`${productId}:${seq}:${block++}`).digest();
      words = new Uint32Array(8);
      for (let i = 0; i < 8; i++) words[i] = mac.readUInt32BE(i * 4);
      at = 0;
    }
    return words![at++]!;
  };
  return rngFrom(() => ((word() >>> 5) * TWO_POW_26 + (word() >>> 6)) / TWO_POW_53);
}

/** The start (epoch ms) of the period holding `ts`; periods are aligned to multiples of their length. */
export function periodStartOf(ts: number, periodMs: number): number {
  return Math.floor(ts / periodMs) * periodMs;
}

/** The model parameters published with every period: what a verifier recomputes ticks with. */
export interface ModelParams {
  version: number;
  precision: number;
  tickSize: number;
  startPrice: string;
  annualVol: number;
  jumpsPerDay: number;
  typicalLots: number;
}

export function modelParamsOf(spec: ProductSpec): ModelParams {
  return {
    version: FAIRNESS_VERSION,
    precision: spec.precision,
    tickSize: spec.tickSize,
    startPrice: spec.startPrice,
    annualVol: spec.annualVol,
    jumpsPerDay: spec.jumpsPerDay,
    typicalLots: spec.typicalLots,
  };
}

function modelSpecOf(productId: string, p: ModelParams): ModelSpec {
  if (p.version !== FAIRNESS_VERSION)
    throw new RangeError(
      `unknown fairness version ${p.version} (this verifier knows ${FAIRNESS_VERSION})`,
    );
  return { id: productId, ...p };
}

/**
 * Where a period's ticks start from: the last tick before the period (seq 0 and ts null when the
 * tape was empty) and the model's state after it.
 */
export interface PeriodStart {
  seq: number;
  ts: number | null;
  state: ModelState;
}

/** A recorded tick as the verifier compares it: price in integer units, qty in lots. */
export interface TapeTick {
  seq: number;
  ts: number;
  price: number;
  qty: number;
}

export interface TickMismatch {
  seq: number;
  /** What differs: the price, the quantity, or the sequence (a tick missing from the tape). */
  field: 'price' | 'qty' | 'seq';
  expected: number;
  actual: number;
}

/**
 * The milliseconds of trading the model advances by for a tick at `ts` after one at `prevTs`:
 * at least 1; 500 for the very first tick of an empty tape. The simulator and every replay use
 * this one rule.
 */
export function stepMs(prevTs: number | null, ts: number): number {
  return prevTs === null ? 500 : Math.max(1, ts - prevTs);
}

/**
 * Recomputes a run of ticks of one period from its secret, its published parameters and its
 * start, taking only each tick's time from the tape. Returns every difference from the tape and
 * the state after the last tick, which is the next period's start when the run reaches the
 * period's end. A changed price or quantity is reported on its own tick only (the model carries
 * its own unquantised state, never the tape's prices). A missing sequence number (a deleted
 * tick) ends the replay there: without that tick's time its step cannot be recomputed, so
 * `complete` is false and nothing after it is judged.
 *
 * @param ticks the tape's ticks of the period after `start.seq`, in sequence order
 */
export function replayTicks(
  productId: string,
  params: ModelParams,
  secret: Buffer,
  start: PeriodStart,
  ticks: readonly TapeTick[],
): { mismatches: TickMismatch[]; end: PeriodStart; complete: boolean } {
  const model = createPriceModel(modelSpecOf(productId, params), 0, start.state);
  const mismatches: TickMismatch[] = [];
  let seq = start.seq;
  let prevTs = start.ts;
  for (const t of ticks) {
    if (t.seq !== seq + 1) {
      mismatches.push({ seq: seq + 1, field: 'seq', expected: seq + 1, actual: t.seq });
      return { mismatches, end: { seq, ts: prevTs, state: model.state() }, complete: false };
    }
    seq = t.seq;
    const step = model.next(stepMs(prevTs, t.ts), keyedRng(secret, productId, t.seq));
    if (step.price !== t.price)
      mismatches.push({ seq: t.seq, field: 'price', expected: step.price, actual: t.price });
    if (step.qty !== t.qty)
      mismatches.push({ seq: t.seq, field: 'qty', expected: step.qty, actual: t.qty });
    prevTs = t.ts;
  }
  return { mismatches, end: { seq, ts: prevTs, state: model.state() }, complete: true };
}

/** The price units of a decimal price at the period's precision (for tapes read from the API). */
export function tapePriceUnits(price: string, params: ModelParams): number {
  return priceToUnits(price, params.precision);
}

/** A model state as stored and published: the two doubles as exact decimal strings. */
export function encodeState(s: ModelState): { logPrice: string; logVol: string } {
  return { logPrice: String(s.logPrice), logVol: String(s.logVol) };
}

export function decodeState(s: { logPrice: string; logVol: string }): ModelState {
  const logPrice = Number(s.logPrice);
  const logVol = Number(s.logVol);
  if (!Number.isFinite(logPrice) || !Number.isFinite(logVol))
    throw new RangeError('a stored model state must hold two finite numbers');
  return { logPrice, logVol };
}
