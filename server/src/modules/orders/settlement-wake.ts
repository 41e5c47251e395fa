import type { Bus } from '@infra/bus';
import { tapeWanted } from '@server/platform/tape-demand';
import type { Queryable } from '@infra/db';

/**
 * When a settlement worker looks at the orders (DECISIONS.md, "Settlement wakes, it does not
 * poll"): on events (orders placed, ticks written to the tape), at the next instant it knows of
 * (an expiry), and on a long safety poll for anything an event missed. A worker with nothing open
 * asks the database nothing between safety polls.
 */

/** The safety poll: how often a worker looks whatever it heard (its `idleMs` unless given). */
export const SAFETY_POLL_MS = 5000;

/**
 * How often a worker looks while something is due and waits on the tape or the grace: with tape
 * events (every tape write wakes it as well) and without (no event can come; the old poll).
 */
export const DUE_RECHECK_MS = { withEvents: 1000, withoutEvents: 50 } as const;

/** The least time between the ends and starts of two rounds woken by events. */
export const MIN_ROUND_GAP_MS = 50;

/** What wakes a worker; each returns a function that stops it. */
export interface SettlementWakes {
  /** Orders were placed (by this process or, over Redis, another). */
  onPlaced(wake: () => void): () => void;
  /** Ticks were written to the tape, so its watermark moved. */
  onTape(wake: () => void): () => void;
  /** Says that a decision waits on the tape: the simulator writes at its full cadence. */
  wantTape(): void;
}

/** Wakes heard on `bus`: `orders` messages (announcePlacements) and the simulator's ticks. */
export function busWakes(bus: Bus): SettlementWakes {
  const on = (subscribed: Promise<() => Promise<void>>) => () =>
    void subscribed.then((off) => off()).catch(() => undefined);
  return {
    onPlaced: (wake) => on(bus.subscribe('orders', () => wake())),
    onTape: (wake) => on(bus.subscribe('tick', () => wake())),
    wantTape: tapeWanted(bus, 'worker'),
  };
}

/**
 * What the api calls after each placement: an `orders` message on `bus`, at most one every
 * `everyMs` (a burst of placements is one wake; the last of it is never dropped).
 */
function announcePlacements(bus: Bus, everyMs = 20): () => void {
  let waiting = false;
  return () => {
    if (waiting) return;
    waiting = true;
    setTimeout(() => {
      waiting = false;
      bus.publish({ type: 'orders', placed: Date.now() }).catch(() => undefined);
    }, everyMs).unref();
  };
}

/**
 * What the api's order service says on `bus`: placements (to wake the workers, and the tape), and
 * that a sale waits on the tape.
 */
export const orderSignals = (bus: Bus) => ({
  placed: announcePlacements(bus),
  wantTape: tapeWanted(bus, 'api'),
});

/** What the open orders say of when to look next, by the database clock. */
export interface OpenOrders {
  /** Open orders still without an entry: decidable at the tape's next write, or the grace. */
  awaitingEntry: boolean;
  /** Ms until the first open order with an entry expires (≤ 0: one is due); null: none open. */
  nextExpiryInMs: number | null;
}

/** One statement on two partial indexes (orders_awaiting_entry, orders_due). */
export async function openOrders(db: Queryable): Promise<OpenOrders> {
  const { rows } = await db.query<{ awaiting: boolean; next_in_ms: number | null }>(
    `SELECT EXISTS (SELECT 1 FROM orders WHERE status = 'open' AND entry_seq IS NULL) AS awaiting,
            floor(extract(epoch FROM (
              SELECT min(expires_at) FROM orders WHERE status = 'open' AND entry_seq IS NOT NULL
            ) - now()) * 1000)::float8 AS next_in_ms`,
    [],
    { prepare: true },
  );
  const r = rows[0]!;
  return {
    awaitingEntry: r.awaiting,
    nextExpiryInMs: r.next_in_ms === null ? null : Number(r.next_in_ms),
  };
}

/** When to look next: in `waitMs` at the latest, and at the tape's next write too if `onTape`. */
export interface NextLook {
  waitMs: number;
  onTape: boolean;
}

/**
 * The next look after a round that left nothing decidable: nothing open, the safety poll; a
 * decision waiting on the tape (an entry, a due exit), the next tape write or the recheck; else
 * the first expiry.
 */
export function nextLook(open: OpenOrders, o: { safetyMs: number; recheckMs: number }): NextLook {
  const due = open.awaitingEntry || (open.nextExpiryInMs !== null && open.nextExpiryInMs <= 0);
  if (due) return { waitMs: Math.min(o.safetyMs, o.recheckMs), onTape: true };
  if (open.nextExpiryInMs === null) return { waitMs: o.safetyMs, onTape: false };
  return { waitMs: Math.min(o.safetyMs, open.nextExpiryInMs), onTape: false };
}
