import type { VoidReason } from '@shared/orders/model';
import { graceOver } from './exit-rule';

/** A recorded tick, its price in units. */
export interface TapeTick {
  seq: number;
  ts: number;
  price: number;
}

/** The tape just after an order's acceptance, as the settlement worker reads it. */
export interface EntryView {
  /** The first recorded tick with ts > acceptance (ties: the lowest seq), or null when none is recorded yet. */
  first: TapeTick | null;
  /** Milliseconds since acceptance by the database clock. */
  sinceAcceptanceMs: number;
  /** The tape's watermark: every tick up to this time (epoch ms) is recorded, none earlier will come. */
  tapeThroughMs: number;
  /** Whether a simulator holds a live lease (exit-rule.ts, `graceOver`). */
  feedLive: boolean;
}

export interface EntryTerms {
  /** Acceptance: the database clock when the order was inserted, epoch ms. */
  acceptedMs: number;
  /** Acceptance + duration. */
  expiresMs: number;
}

export type Entry =
  | { final: false }
  | { final: true; entry: TapeTick }
  | { final: true; entry: null; voidReason: Extract<VoidReason, 'NO_ENTRY_TICK'> };

/**
 * DECISIONS.md, Orders: the entry is the first tick recorded after acceptance (ts > acceptance,
 * ties by seq), never a tick at or before it, so nobody can buy a move they have already seen.
 * It must come within the max feed delay (and never after expiry, so the exit can never precede
 * it); when the first tick after acceptance lies beyond that window, or none is recorded and the
 * tape is complete through the window (its watermark) or the grace after the window is over
 * (`graceOver`), the order is void (NO_ENTRY_TICK) and the stake refunded.
 */
export function enter(o: EntryTerms, view: EntryView, maxFeedDelayMs: number): Entry {
  const windowEnd = Math.min(o.acceptedMs + maxFeedDelayMs, o.expiresMs);
  const { first } = view;
  if (first && first.ts <= windowEnd) return { final: true, entry: first };
  const sinceWindowMs = view.sinceAcceptanceMs - (windowEnd - o.acceptedMs);
  if (!first && view.tapeThroughMs < windowEnd && !graceOver(sinceWindowMs, view.feedLive))
    return { final: false };
  return { final: true, entry: null, voidReason: 'NO_ENTRY_TICK' };
}
