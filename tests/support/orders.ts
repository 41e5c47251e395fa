import type { ProductStatus, Tick } from '@shared/market/model';
import type { Bus } from '@infra/bus';
import type { Db, Queryable } from '@infra/db';
import { transfer } from '@server/modules/ledger/ledger';
import { insertTicks } from '@sim/tape.repo';
import { startSettlementWorker } from '@server/modules/orders/settlement.worker';
import type { TestApi } from './api';

/**
 * Publishes a market state in which each named product has the given status (as the simulator
 * does every second), so placement checks see them open, closed or under maintenance.
 */
export async function publishMarket(
  bus: Bus,
  statuses: Record<string, ProductStatus>,
  opensAt = Date.now() + 3_600_000,
): Promise<void> {
  await bus.publish({
    type: 'market',
    market: {
      ts: Date.now(),
      products: Object.entries(statuses).map(([id, status]) => ({
        id,
        status,
        opensAt: status === 'closed' ? opensAt : undefined,
        last: null,
        stats: {
          open: '0',
          high: '0',
          low: '0',
          last: '0',
          change: '0',
          changePct: '0.00',
          volume: '0',
          amount: '0.00',
        },
      })),
    },
  });
}

/** Credits a user's available balance from outside (as an approved deposit would). */
export async function fund(db: Db, userId: number | string, amount: number): Promise<void> {
  await db.transaction((tx) =>
    transfer(tx, {
      kind: 'deposit',
      userId: Number(userId),
      ref: `test-fund:${Date.now()}:${Math.random()}`,
      legs: [
        { account: { house: 'world' }, amount: -amount },
        { account: { user: Number(userId), kind: 'available' }, amount },
      ],
    }),
  );
}

let seq = 1_000_000;

/** Records a tick on the tape only (the api's bus does not hear of it); price in units. */
export async function recordTick(
  db: Queryable,
  productId: string,
  priceUnits: number,
  ts = Date.now(),
): Promise<{ seq: number; ts: number; price: number }> {
  const s = ++seq;
  await insertTicks(db, [{ productId, seq: s, ts, price: priceUnits, qty: 1 }]);
  return { seq: s, ts, price: priceUnits };
}

/** Publishes a fresh tick (as the simulator would) and records it on the tape; price in units. */
export async function liveTick(
  db: Db,
  bus: Bus,
  productId: string,
  priceUnits: number,
  ts = Date.now(),
  precision = 2,
): Promise<Tick> {
  const s = ++seq;
  await insertTicks(db, [{ productId, seq: s, ts, price: priceUnits, qty: 1 }]);
  const price = (priceUnits / 10 ** precision).toFixed(precision);
  const tick: Tick = { id: productId, seq: s, ts, price };
  await bus.publish({ type: 'tick', tick });
  await new Promise((r) => setTimeout(r, 5));
  return tick;
}

/**
 * Moves an open order's expiry to `msAgo` before the database's now (instead of waiting). Its
 * acceptance stays: use it once the entry is in place, or use `backdateOrder`.
 */
export async function expireOrder(
  db: Queryable,
  orderId: number | string,
  msAgo = 0,
): Promise<number> {
  const { rows } = await db.query<{ expires_ms: number }>(
    `UPDATE orders SET expires_at = now() - make_interval(secs => $2::double precision / 1000),
            expires_ms = floor(extract(epoch FROM now() - make_interval(secs => $2::double precision / 1000)) * 1000)::bigint
     WHERE id = $1 RETURNING expires_ms`,
    [orderId, msAgo],
  );
  return rows[0]!.expires_ms;
}

/**
 * Moves an open order `ms` into the past, acceptance and expiry together (as if placed `ms`
 * earlier, so the tape after its acceptance can be written afterwards). Returns both, epoch ms.
 */
export async function backdateOrder(
  db: Queryable,
  orderId: number | string,
  ms: number,
): Promise<{ acceptedMs: number; expiresMs: number }> {
  const { rows } = await db.query<{ accepted_ms: number; expires_ms: number }>(
    `UPDATE orders SET created_at = created_at - make_interval(secs => $2::double precision / 1000),
            accepted_ms = accepted_ms - $2::bigint,
            expires_at = expires_at - make_interval(secs => $2::double precision / 1000),
            expires_ms = expires_ms - $2::bigint
     WHERE id = $1 AND status = 'open' RETURNING accepted_ms, expires_ms`,
    [orderId, ms],
  );
  return { acceptedMs: rows[0]!.accepted_ms, expiresMs: rows[0]!.expires_ms };
}

/**
 * A settlement worker that has done one round (entries, then settlements) and stopped: further
 * rounds are run by hand with its `entryBatch` and `settleBatch`.
 */
export async function stoppedWorker(db: Db, api: Pick<TestApi, 'orders' | 'userEvents'>) {
  const worker = startSettlementWorker({
    db,
    orders: api.orders,
    userEvents: api.userEvents,
    balancesChanged: () => undefined,
    maxFeedDelayMs: 3000,
    idleMs: 60_000,
  });
  await worker.stop();
  return worker;
}
