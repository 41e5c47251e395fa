import type { Queryable } from '@infra/db';
import { columns, type OrderRow } from './orders.repo';

/** A recorded tick, its price in units. */
export interface SaleTick {
  seq: number;
  ts: number;
  price: number;
}

/**
 * The database clock in epoch ms: a sell is accepted by it, like an order (orders.accepted_ms),
 * so no server's clock decides which tick is "after".
 */
export async function databaseNowMs(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ ms: string }>(
    `SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint::text AS ms`,
  );
  return Number(rows[0]!.ms);
}

/**
 * The first tick recorded for a product after `afterMs` (ts > afterMs, ties by seq): the entry
 * rule's query (settlement.repo.ts, claimAwaitingEntry), for a sale.
 */
export async function firstTickAfter(
  db: Queryable,
  productId: string,
  afterMs: number,
): Promise<SaleTick | null> {
  const { rows } = await db.query<SaleTick>(
    `SELECT seq, ts, price FROM ticks WHERE product_id = $1 AND ts > $2 ORDER BY ts, seq LIMIT 1`,
    [productId, afterMs],
    { prepare: true },
  );
  return rows[0] ?? null;
}

/**
 * The order, locked until the transaction ends, if it is still open: a settling worker holding it
 * makes this wait, then find it closed (its claim is `FOR UPDATE SKIP LOCKED`, so one holding
 * the lock here makes the worker pass it by until the sale has committed).
 */
export async function lockOpenOrder(
  tx: Queryable,
  userId: number,
  id: number,
): Promise<OrderRow | null> {
  const { rows } = await tx.query<OrderRow>(
    `SELECT ${columns} FROM orders WHERE id = $1 AND user_id = $2 AND status = 'open' FOR UPDATE`,
    [id, userId],
  );
  return rows[0] ?? null;
}

/** Writes the sale on the locked order: its tick as the exit, its value as the payout. */
export async function markSold(
  tx: Queryable,
  s: {
    id: number;
    tick: SaleTick;
    value: number;
    requestedMs: number;
    annualVol: number;
    spreadBp: number;
  },
): Promise<OrderRow> {
  const { rows } = await tx.query<OrderRow>(
    `UPDATE orders SET status = 'sold', exit_seq = $2, exit_ts = $3, exit_price = $4, payout = $5,
            settled_at = now(), sell_requested_ms = $6, sell_annual_vol = $7, sell_spread_bp = $8
     WHERE id = $1 AND status = 'open'
     RETURNING ${columns}`,
    [s.id, s.tick.seq, s.tick.ts, s.tick.price, s.value, s.requestedMs, s.annualVol, s.spreadBp],
  );
  if (!rows[0]) throw new Error(`sale: order ${s.id} was not open under its lock`);
  return rows[0];
}
