/**
 * The order ticket's rules, kept out of the component so they can be tested: the amount bounds,
 * "place all", the idempotency key of an attempt, and the text of a refusal.
 */
import { checkTypedAmount } from '@shared/amount-input';
import type { PlaceOrderBody } from '@shared/orders/model';
import type { DurationRate } from '@shared/product';
import type { TFunction } from 'i18next';
import { ApiError } from '@client/api/client';
import { errorText, retryAfterSeconds } from '@client/components/error-text';

export interface StakeBounds {
  /** Minor units. */
  minStake: number;
  maxStake: number;
}

export type AmountCheck =
  { ok: true; amount: number } | { ok: false; reason: 'empty' | 'outOfRange' | 'insufficient' };

/**
 * Checks the typed amount before the confirmation step: complete, within the product's stake
 * bounds, and covered by the available balance (when known; the server checks it anyway).
 */
export function checkAmount(
  input: string,
  bounds: StakeBounds,
  available: number | null,
): AmountCheck {
  const typed = checkTypedAmount(input, {
    min: bounds.minStake,
    max: bounds.maxStake,
    balance: available,
  });
  if (typed.state === 'empty') return { ok: false, reason: 'empty' };
  if (typed.state === 'invalid')
    return { ok: false, reason: typed.problem === 'balance' ? 'insufficient' : 'outOfRange' };
  return { ok: true, amount: typed.amount };
}

/** The rung to preselect: the one chosen before if the product still offers it, else the first. */
export function pickDuration(
  durations: readonly DurationRate[],
  previous: number | null,
): DurationRate | null {
  return durations.find((d) => d.seconds === previous) ?? durations[0] ?? null;
}

/** A new Idempotency-Key: 128 random bits in hex (works on plain http too, unlike randomUUID). */
export function newIdempotencyKey(
  random: (bytes: Uint8Array) => void = (b) => crypto.getRandomValues(b),
): string {
  const bytes = new Uint8Array(16);
  random(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** One confirmed purchase: its body and the key that makes a resend of it safe. */
export interface Attempt {
  key: string;
  body: PlaceOrderBody;
}

const sameBody = (a: PlaceOrderBody, b: PlaceOrderBody) =>
  a.productId === b.productId &&
  a.direction === b.direction &&
  a.amount === b.amount &&
  a.duration === b.duration &&
  a.expiry === b.expiry &&
  a.rate === b.rate &&
  a.mode === b.mode;

/**
 * The attempt to send: the unfinished one again when the user retries the same order (its first
 * answer may have been lost, and the key makes the server answer it once), else a new one.
 */
export function attemptFor(
  unfinished: Attempt | null,
  body: PlaceOrderBody,
  newKey: () => string = newIdempotencyKey,
): Attempt {
  return unfinished && sameBody(unfinished.body, body) ? unfinished : { key: newKey(), body };
}

/**
 * True when a failure leaves it unknown whether the order was placed (no answer, a timeout, a
 * server error): the attempt is kept, and a retry reuses its key. A refusal (4xx) is final.
 */
export function outcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return (
    error.code === 'NETWORK' ||
    error.code === 'TIMEOUT' ||
    error.code === 'BAD_RESPONSE' ||
    error.status >= 500
  );
}

/**
 * What the ticket says when the server refused an order: the stake bounds for an amount out of
 * range (`outOfRange`), how long to wait when the user placed too many orders at once (429
 * RATE_LIMITED with the server's retry time, DECISIONS.md "Public market reads and order throttles"), else the code's text.
 */
export function refusalText(t: TFunction, error: unknown, outOfRange: () => string): string {
  if (error instanceof ApiError && error.code === 'AMOUNT_OUT_OF_RANGE') return outOfRange();
  const wait = retryAfterSeconds(error);
  if (wait !== null) return t('orders.ticket.tooManyOrders', { seconds: wait });
  return errorText(t, error);
}
