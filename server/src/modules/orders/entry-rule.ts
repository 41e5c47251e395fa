import type { VoidReason } from '@shared/orders';
import { SETTLE_GRACE_MS } from './exit-rule';

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
 * grace after the window has passed, the order is void (NO_ENTRY_TICK) and the stake refunded.
 */
export function enter(o: EntryTerms, view: EntryView, maxFeedDelayMs: number): Entry {
  const windowEnd = Math.min(o.acceptedMs + maxFeedDelayMs, o.expiresMs);
  const { first } = view;
  if (first && first.ts <= windowEnd) return { final: true, entry: first };
  const sinceWindowMs = view.sinceAcceptanceMs - (windowEnd - o.acceptedMs);
  if (!first && sinceWindowMs < SETTLE_GRACE_MS) return { final: false };
  return { final: true, entry: null, voidReason: 'NO_ENTRY_TICK' };
}
