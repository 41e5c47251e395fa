import type { Direction, OrderStatus, VoidReason } from '@shared/orders/model';
import { winPayout } from '@shared/orders/model';

/** The tape around an order's expiry, as the settlement worker reads it. */
export interface ExitView {
  /**
   * The last recorded tick with ts ≤ expiry, or null when there is none. Never one before the
   * entry: the entry lies at or before expiry (entry-rule.ts), so it is a candidate itself.
   */
  exit: { seq: number; ts: number; price: number } | null;
  /**
   * Whether the tape through the expiry is final: a tick after the expiry is recorded, or the
   * tape's watermark (every tick up to it written, none earlier to come) has reached the expiry.
   */
  tapeFinal: boolean;
  /** Milliseconds since expiry by the database clock. */
  sinceExpiryMs: number;
  /**
   * Whether a simulator holds a live lease (it is writing the tape): an incomplete tape is then
   * late, not final, and the grace does not decide on it (`graceOver`).
   */
  feedLive: boolean;
}

export interface OrderTerms {
  direction: Direction;
  amount: number;
  rateBp: number;
  /** The entry tick's price (the first tick after acceptance, entry-rule.ts). */
  entryPrice: number;
  expiresMs: number;
}

export type Settlement =
  | { final: false }
  | {
      final: true;
      status: Exclude<OrderStatus, 'open' | 'sold'>;
      payout: number;
      exit: ExitView['exit'];
      voidReason: VoidReason | null;
    };

export const SETTLE_GRACE_MS = 2000;

/**
 * However live the feed says it is, an exit or entry still undecided this long after its time is
 * decided on the tape as recorded (a simulator that renews its lease but cannot write its tape).
 */
export const TAPE_BACKSTOP_MS = 30_000;

/**
 * Whether an order may be decided on a tape that is not final through its time, `sinceMs` after
 * that time: once the grace has passed with no simulator holding a live lease (the feed is gone:
 * nothing more will be written), or once the backstop has passed. While a simulator leads, a
 * late tape only delays the decision: no load on the api or the database can make an order be
 * decided on ticks that are merely late (docs/FAIRNESS.md, Voids).
 */
export function graceOver(sinceMs: number, feedLive: boolean): boolean {
  return sinceMs >= TAPE_BACKSTOP_MS || (!feedLive && sinceMs >= SETTLE_GRACE_MS);
}

/**
 * Whether an expiry's exit can be decided now: the tape through it is final, or the grace is over.
 * It depends on the expiry and the tape only, not on the order (settlement.set.ts decides it for
 * many expiries at once with `finalThrough`).
 */
export const exitFinal = (view: Omit<ExitView, 'exit'>): boolean =>
  view.tapeFinal || graceOver(view.sinceExpiryMs, view.feedLive);

/**
 * The latest expiry whose exit is final now on a tape with no tick after it: `exitFinal` for
 * every expiry at once. With no later tick, an expiry's tape is final when the watermark has
 * reached it, and the grace is over once `nowMs` is the backstop past it, or the grace past it
 * with no live feed: so exactly the expiries at or before the latest of those three instants.
 */
export const finalThrough = (t: { watermarkMs: number; nowMs: number; feedLive: boolean }) =>
  Math.max(
    t.watermarkMs,
    t.nowMs - TAPE_BACKSTOP_MS,
    t.feedLive ? -Infinity : t.nowMs - SETTLE_GRACE_MS,
  );

/**
 * Whether an exit shows a live feed at expiry: a tick at most the max feed delay before it. One
 * that is missing or older means the feed stalled, and the order is void (FEED_STALE).
 */
export const exitFresh = (
  exit: ExitView['exit'],
  expiresMs: number,
  maxFeedDelayMs: number,
): exit is NonNullable<ExitView['exit']> => exit !== null && exit.ts >= expiresMs - maxFeedDelayMs;

/**
 * DECISIONS.md, Timed orders: the exit is the last tick at or before expiry; it is final once the
 * tape through the expiry is (a later tick is recorded, or the tape's watermark reached it) or
 * the grace is over (`graceOver`: the feed is gone). An exit older than expiry − max feed delay
 * (or none at all) means the feed stalled: the order is void and the stake refunded. Up wins
 * above the entry, down below it; equal is a draw (stake refunded). A win pays stake + stake × rate.
 */
export function settle(o: OrderTerms, view: ExitView, maxFeedDelayMs: number): Settlement {
  if (!exitFinal(view)) return { final: false };
  const { exit } = view;
  if (!exitFresh(exit, o.expiresMs, maxFeedDelayMs)) {
    return { final: true, status: 'void', payout: o.amount, exit, voidReason: 'FEED_STALE' };
  }
  if (exit.price === o.entryPrice)
    return { final: true, status: 'draw', payout: o.amount, exit, voidReason: null };
  const won = o.direction === 'up' ? exit.price > o.entryPrice : exit.price < o.entryPrice;
  return won
    ? { final: true, status: 'won', payout: winPayout(o.amount, o.rateBp), exit, voidReason: null }
    : { final: true, status: 'lost', payout: 0, exit, voidReason: null };
}
