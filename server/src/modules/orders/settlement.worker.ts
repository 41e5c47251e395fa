import type { Db } from '@server/platform/db';
import type { Logger } from '@server/platform/logger';
import type { UserEvents } from '@server/platform/user-events';
import { transferMany, type Leg } from '../wallet/ledger';
import { settle } from './exit-rule';
import * as repo from './orders.repo';
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
  /** Observes each settled order's lag (settled − expiry, ms) for metrics and benchmarks. */
  onSettled?: (lagMs: number, status: string) => void;
}

/**
 * Settles due orders exactly once, whichever of any number of workers claims them: claims with
 * FOR UPDATE SKIP LOCKED, judges expiry by the database clock, and writes each result with its
 * ledger transfer in the claiming transaction. A killed worker's transaction rolls back whole, and
 * its orders are claimed again by the next poll of any worker.
 */
export function startSettlementWorker(d: WorkerDeps) {
  const batchSize = d.batchSize ?? 200;
  const idleMs = d.idleMs ?? 50;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  /** Settles one batch; returns how many orders it claimed. */
  const settleBatch = async (): Promise<number> => {
    const done = await d.db.transaction(async (tx) => {
      const due = await repo.claimDue(tx, batchSize);
      if (!due.length) return { claimed: 0, settled: [] as repo.OrderRow[] };
      const outcomes = due.flatMap((o) => {
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
            tickAfter: o.tick_after,
            sinceExpiryMs: o.since_expiry_ms,
          },
          d.maxFeedDelayMs,
        );
        return s.final ? [{ o, s }] : [];
      });
      if (!outcomes.length) return { claimed: due.length, settled: [] as repo.OrderRow[] };
      // The whole batch in a fixed number of statements: results, then every ledger transfer.
      const settled = await repo.markSettledMany(
        tx,
        outcomes.map(({ o, s }) => ({
          id: o.id,
          status: s.status,
          exit: s.exit,
          payout: s.payout,
          voidReason: s.voidReason,
        })),
      );
      await transferMany(
        tx,
        outcomes.map(({ o, s }) => {
          const legs: Leg[] = [
            { account: { user: o.user_id, kind: 'in_orders' }, amount: -o.amount },
          ];
          if (s.payout > 0)
            legs.push({ account: { user: o.user_id, kind: 'available' }, amount: s.payout });
          if (s.payout !== o.amount)
            legs.push({ account: { house: 'house_trading' }, amount: o.amount - s.payout });
          const kind =
            s.status === 'won'
              ? 'order_payout'
              : s.status === 'lost'
                ? 'order_loss'
                : 'order_refund';
          return { kind, userId: o.user_id, ref: `settle:${o.id}`, legs };
        }),
      );
      return { claimed: due.length, settled };
    });
    for (const row of done.settled) {
      d.userEvents.emit(row.user_id, 'order', d.orders.present(row));
      d.onSettled?.(row.settled_at!.getTime() - row.expires_ms, row.status);
    }
    if (done.settled.length) d.balancesChanged([...new Set(done.settled.map((r) => r.user_id))]);
    // Claimed but none final: the exits are still pending; let the tape catch up before re-claiming.
    return done.settled.length ? done.claimed : 0;
  };

  const loop = async () => {
    try {
      while (!stopped && (await settleBatch()) > 0) {
        /* keep going while there is work */
      }
    } catch (err) {
      d.log?.error({ err }, 'settlement batch failed; will retry');
    }
    if (!stopped) timer = setTimeout(() => void (running = loop()), idleMs);
  };
  running = loop();

  return {
    settleBatch,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
