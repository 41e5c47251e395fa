import type { VoidReason } from '@shared/orders';
import type { Db, Queryable } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { UserEvents } from '@server/platform/user-events';
import type { TradeMode } from '@shared/orders';
import {
  announceMessage,
  writeSystemMessages,
  type MessageAnnouncement,
} from '../content/system-messages';
import { orderAccounts, transferMany, type Leg, type TransferSpec } from '../ledger/ledger';
import { enter } from './entry-rule';
import { SETTLE_GRACE_MS, settle } from './exit-rule';
import type * as repo from './orders.repo';
import * as settlementRepo from './settlement.repo';
import type { OrdersService } from './orders.service';

export interface WorkerDeps {
  db: Db;
  orders: Pick<OrdersService, 'present'>;
  userEvents: UserEvents;
  balancesChanged: (userIds: number[]) => void;
  maxFeedDelayMs: number;
  log?: Logger;
  batchSize?: number;
  idleMs?: number;
  /** Observes each settled order's lag (committed and announced − expiry, ms) for metrics and benchmarks. */
  onSettled?: (lagMs: number, order: SettledFacts) => void;
  /**
   * Observes each entry decided: written (lag = written − the entry tick's time, ms) or void
   * for want of a tick (lag = voided − acceptance).
   */
  onEntry?: (lagMs: number, outcome: 'entered' | 'void', order: SettledFacts) => void;
}

/** What metrics learn of a decided order. */
export interface SettledFacts {
  status: string;
  mode: TradeMode;
  productId: string;
  voidReason: string | null;
}

const factsOf = (row: repo.OrderRow): SettledFacts => ({
  status: row.status,
  mode: row.mode,
  productId: row.product_id,
  voidReason: row.void_reason,
});

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

/**
 * The one ledger transfer that ends an order: the stake leaves in_orders, the payout goes to
 * available, the difference to (or from) the house. Its unique ref makes a second one impossible.
 * A practice order's transfer moves practice accounts only (its mode's in_orders, available and
 * house account).
 */
function closingTransfer(c: Closing): TransferSpec {
  const a = orderAccounts[c.mode];
  const legs: Leg[] = [{ account: { user: c.userId, kind: a.inOrders }, amount: -c.amount }];
  if (c.payout > 0) legs.push({ account: { user: c.userId, kind: a.available }, amount: c.payout });
  if (c.payout !== c.amount)
    legs.push({ account: { house: a.house }, amount: c.amount - c.payout });
  const kind =
    c.status === 'won' ? 'order_payout' : c.status === 'lost' ? 'order_loss' : 'order_refund';
  return { kind, userId: c.userId, ref: `settle:${c.id}`, legs };
}

/**
 * The system message of a closed real order (its result stays in the user's messages after the
 * app was closed). Practice orders move play money and get none: their result shows on screen.
 */
function resultMessage(row: repo.OrderRow) {
  return {
    userId: row.user_id,
    kind: `order_${row.status as 'won' | 'lost' | 'draw' | 'void'}` as const,
    params: {
      ref: String(row.id),
      product: row.product_id,
      amount: row.amount,
      payout: row.payout ?? 0,
      ...(row.void_reason ? { reason: row.void_reason } : {}),
    },
  };
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
  await transferMany(tx, list.map(closingTransfer));
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

/** Settles one batch (exit-rule.ts); returns how many orders it claimed, 0 when none was final. */
async function settleBatch(d: WorkerDeps, batchSize: number): Promise<number> {
  const done = await d.db.transaction(async (tx) => {
    const due = await settlementRepo.claimDue(tx, batchSize, SETTLE_GRACE_MS);
    const outcomes = due.flatMap((o): Closing[] => {
      const s = settle(
        {
          direction: o.direction,
          amount: o.amount,
          rateBp: o.rate_bp,
          entryPrice: o.entry_price,
          expiresMs: o.expires_ms,
        },
        {
          exit:
            o.x_seq !== null && o.x_ts !== null && o.x_price !== null
              ? { seq: o.x_seq, ts: o.x_ts, price: o.x_price }
              : null,
          tapeFinal: o.tape_final,
          sinceExpiryMs: o.since_expiry_ms,
          feedLive: o.feed_live,
        },
        d.maxFeedDelayMs,
      );
      return s.final
        ? [{ order: o, id: o.id, userId: o.user_id, mode: o.mode, amount: o.amount, ...s }]
        : [];
    });
    const { rows: settled, messages } = await closeMany(tx, outcomes);
    return { claimed: due.length, settled, messages };
  });
  for (const m of done.messages) announceMessage(d.userEvents, m);
  for (const row of done.settled) {
    // One line per settled order: ids and figures, the money state change an operator traces.
    d.log?.info(
      {
        event: 'order.settled',
        orderId: row.id,
        userId: row.user_id,
        mode: row.mode,
        status: row.status,
        amount: row.amount,
        payout: row.payout,
      },
      'order settled',
    );
    d.userEvents.emit(row.user_id, 'order', d.orders.present(row));
    // Measured now, committed and announced: what the trader waited since expiry.
    d.onSettled?.(Date.now() - row.expires_ms, factsOf(row));
  }
  if (done.settled.length) d.balancesChanged([...new Set(done.settled.map((r) => r.user_id))]);
  // Claimed but none final: the exits are still pending; let the tape catch up before re-claiming.
  return done.settled.length ? done.claimed : 0;
}

/**
 * Gives orders their entry and settles due ones, exactly once whichever of any number of workers
 * claims them: claims with FOR UPDATE SKIP LOCKED, judges acceptance and expiry by the database
 * clock, and writes each decision (with its ledger transfer) in the claiming transaction. A killed
 * worker's transaction rolls back whole, and its orders are claimed again by the next poll of any
 * worker.
 */
export function startSettlementWorker(d: WorkerDeps) {
  const batchSize = d.batchSize ?? 200;
  const idleMs = d.idleMs ?? 50;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  const loop = async () => {
    try {
      // An idle worker polls with one cheap statement; the claiming transactions run only when
      // something can be decided. Entries first: an order whose entry is decided in this round
      // can settle in the same one.
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
    } catch (err) {
      d.log?.error({ err }, 'settlement batch failed; will retry');
    }
    if (!stopped) timer = setTimeout(() => void (running = loop()), idleMs);
  };
  running = loop();

  return {
    entryBatch: () => entryBatch(d, batchSize),
    settleBatch: () => settleBatch(d, batchSize),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
