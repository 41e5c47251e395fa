import type { VoidReason } from '@shared/orders/model';
import type { Queryable } from '@infra/db';
import type { TradeMode } from '@shared/orders/model';
import {
  announceMessage,
  writeSystemMessages,
  type MessageAnnouncement,
} from '../content/system-messages';
import { transferMany } from '../ledger/ledger';
import { enter } from './entry-rule';
import { SETTLE_GRACE_MS } from './exit-rule';
import type * as repo from './orders.repo';
import * as settlementRepo from './settlement.repo';
import { closingTransfer, factsOf, resultMessage, type WorkerDeps } from './settlement.closing';
import { settleBatch } from './settlement.set';
import {
  DUE_RECHECK_MS,
  MIN_ROUND_GAP_MS,
  nextLook,
  openOrders,
  SAFETY_POLL_MS,
  type NextLook,
  type SettlementWakes,
} from './settlement-wake';

export type { SettledFacts, WorkerDeps } from './settlement.closing';

interface Closing {
  /** The order as claimed (open). */
  order: repo.OrderRow;
  id: number;
  userId: number;
  mode: TradeMode;
  amount: number;
  status: 'won' | 'lost' | 'draw' | 'void';
  payout: number;
  exit: { seq: number; ts: number; price: number } | null;
  voidReason: VoidReason | null;
}

/** The order row a closing writes: the claimed row with its result and settlement time. */
function closedRow(c: Closing, settledAt: Date): repo.OrderRow {
  const o = c.order;
  return {
    id: o.id,
    user_id: o.user_id,
    mode: o.mode,
    product_id: o.product_id,
    direction: o.direction,
    amount: o.amount,
    duration: o.duration,
    rate_bp: o.rate_bp,
    entry_seq: o.entry_seq,
    entry_ts: o.entry_ts,
    entry_price: o.entry_price,
    created_at: o.created_at,
    accepted_ms: o.accepted_ms,
    expires_at: o.expires_at,
    expires_ms: o.expires_ms,
    status: c.status,
    exit_seq: c.exit?.seq ?? null,
    exit_ts: c.exit?.ts ?? null,
    exit_price: c.exit?.price ?? null,
    payout: c.payout,
    settled_at: settledAt,
    void_reason: c.voidReason,
    sell_requested_ms: null,
    sell_annual_vol: null,
    sell_spread_bp: null,
    expiry: o.expiry,
  };
}

/**
 * Ends many orders in a fixed number of statements: their results, every ledger transfer, and
 * the real orders' result messages. Returns the closed rows and the messages to announce.
 */
async function closeMany(
  tx: Queryable,
  list: readonly Closing[],
): Promise<{ rows: repo.OrderRow[]; messages: MessageAnnouncement[] }> {
  if (!list.length) return { rows: [], messages: [] };
  // The database returns only what it adds (the settlement time); the rest is the claimed row.
  const byId = new Map(list.map((c) => [c.id, c]));
  const rows = (await settlementRepo.markSettledMany(tx, list)).map((r) =>
    closedRow(byId.get(Number(r.id))!, r.settled_at),
  );
  const messages = await writeSystemMessages(
    tx,
    rows.filter((r) => r.mode === 'real').map(resultMessage),
  );
  // Last: the transfers lock the house account, which every settling worker needs, so it is held
  // for the commit only, not for the other statements.
  await transferMany(tx, rows.map(closingTransfer));
  return { rows, messages };
}

/**
 * Decides one batch of entries (entry-rule.ts): the first tick after acceptance is written on
 * the order, or the order is void (NO_ENTRY_TICK) with its stake refunded. Only decidable orders
 * are claimed, so every claim ends in a decision. Returns how many orders it decided.
 */
async function entryBatch(d: WorkerDeps, batchSize: number): Promise<number> {
  const done = await d.db.transaction(async (tx) => {
    const waiting = await settlementRepo.claimAwaitingEntry(tx, {
      limit: batchSize,
      maxFeedDelayMs: d.maxFeedDelayMs,
      graceMs: SETTLE_GRACE_MS,
    });
    const entered: { id: number; entry: { seq: number; ts: number; price: number } }[] = [];
    const voided: Closing[] = [];
    for (const o of waiting) {
      const e = enter(
        { acceptedMs: o.accepted_ms, expiresMs: o.expires_ms },
        {
          first:
            o.f_seq !== null && o.f_ts !== null && o.f_price !== null
              ? { seq: o.f_seq, ts: o.f_ts, price: o.f_price }
              : null,
          sinceAcceptanceMs: o.since_acceptance_ms,
          tapeThroughMs: o.tape_through_ms,
          feedLive: o.feed_live,
        },
        d.maxFeedDelayMs,
      );
      if (!e.final) continue;
      if (e.entry) entered.push({ id: o.id, entry: e.entry });
      else
        voided.push({
          order: o,
          id: o.id,
          userId: o.user_id,
          mode: o.mode,
          amount: o.amount,
          status: 'void',
          payout: o.amount,
          exit: null,
          voidReason: e.voidReason,
        });
    }
    // A fixed number of statements whatever the batch: the entries, the voids, their transfers.
    const filled = entered.length ? await settlementRepo.fillEntries(tx, entered) : [];
    const { rows: closed, messages } = await closeMany(tx, voided);
    return { decided: filled.length + closed.length, filled, closed, messages };
  });
  for (const m of done.messages) announceMessage(d.userEvents, m);
  const now = Date.now();
  for (const row of done.filled) {
    d.userEvents.emit(row.user_id, 'order', d.orders.present(row));
    d.onEntry?.(now - row.entry_ts!, 'entered', factsOf(row));
  }
  for (const row of done.closed) {
    d.userEvents.emit(row.user_id, 'order', d.orders.present(row));
    d.onEntry?.(row.settled_at!.getTime() - row.accepted_ms, 'void', factsOf(row));
  }
  if (done.closed.length) d.balancesChanged([...new Set(done.closed.map((r) => r.user_id))]);
  return done.decided;
}

/** What a worker is given beyond WorkerDeps: what wakes it (none: it looks on its timers only). */
export interface WorkerOptions extends WorkerDeps {
  wakes?: SettlementWakes;
}

/**
 * Gives orders their entry and settles due ones, exactly once whichever of any number of workers
 * claims them: claims with FOR UPDATE SKIP LOCKED, judges acceptance and expiry by the database
 * clock, and writes each decision (with its ledger transfer) in the claiming transaction. A killed
 * worker's transaction rolls back whole, and its orders are claimed again by the next round of any
 * worker. Rounds run when something may be decidable (settlement-wake.ts): on placements, on tape
 * writes while a decision waits on the tape, at the next expiry, and every `idleMs` (the safety
 * poll) whatever it heard.
 */
export function startSettlementWorker(d: WorkerOptions) {
  const batchSize = d.batchSize ?? 1000;
  // With no events to hear (a worker without a bus), nothing can say that work came: it looks
  // every 50 ms, as it always did. With events, the safety poll is only for what they missed.
  const safetyMs = d.idleMs ?? (d.wakes ? SAFETY_POLL_MS : DUE_RECHECK_MS.withoutEvents);
  const recheckMs = d.wakes ? DUE_RECHECK_MS.withEvents : DUE_RECHECK_MS.withoutEvents;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Infinity;
  let running: Promise<void> | null = null;
  /** A wake heard during a round: the earliest time the next round may start. */
  let againAt = Infinity;
  let lastEnd = 0;
  let onTape = false;

  /** Starts a round at `at` (epoch ms) unless one is already set for earlier. */
  const lookAt = (at: number) => {
    if (stopped) return;
    if (running) return void (againAt = Math.min(againAt, at));
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(startRound, Math.max(0, at - Date.now()));
  };
  /** An event: a round soon, not sooner than MIN_ROUND_GAP_MS after the last one. */
  const soon = () => lookAt(Math.max(Date.now(), lastEnd + MIN_ROUND_GAP_MS));

  const round = async (): Promise<NextLook> => {
    // Entries first: an order whose entry is decided in this round can settle in the same one.
    if (
      await settlementRepo.anythingDecidable(d.db, {
        maxFeedDelayMs: d.maxFeedDelayMs,
        graceMs: SETTLE_GRACE_MS,
      })
    ) {
      // The round a stop finds under way is finished, then no other.
      let decided;
      do decided = (await entryBatch(d, batchSize)) + (await settleBatch(d, batchSize));
      while (decided > 0 && !stopped);
    }
    return nextLook(await openOrders(d.db), { safetyMs, recheckMs });
  };

  function startRound() {
    timer = null;
    timerAt = Infinity;
    running = round()
      .catch((err: unknown) => {
        d.log?.error({ err }, 'settlement batch failed; will retry');
        return { waitMs: Math.min(safetyMs, recheckMs), onTape: true };
      })
      .then((next) => {
        running = null;
        lastEnd = Date.now();
        onTape = next.onTape;
        // Its next decision waits on the tape: ask for it current (at rest it comes once a second).
        if (onTape) d.wakes?.wantTape();
        const again =
          againAt === Infinity ? Infinity : Math.max(againAt, lastEnd + MIN_ROUND_GAP_MS);
        againAt = Infinity;
        lookAt(Math.min(again, lastEnd + next.waitMs));
      });
  }

  const offs = d.wakes
    ? [
        d.wakes.onPlaced(soon),
        // Ticks come many a second: they wake a worker only while a decision waits on the tape.
        d.wakes.onTape(() => onTape && soon()),
      ]
    : [];
  startRound();

  return {
    entryBatch: () => entryBatch(d, batchSize),
    settleBatch: () => settleBatch(d, batchSize),
    async stop() {
      stopped = true;
      for (const off of offs) off();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
