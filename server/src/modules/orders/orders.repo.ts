import type { Queryable } from '@infra/db';
import type { TradeMode } from '@shared/orders/model';
import type { ClockExpiry } from '@shared/orders/clock-expiry';
import { conflict } from '@server/platform/http/errors';
import { pgErrorCode } from '@infra/db/db';
import {
  orderAccounts,
  refuseOverdraft,
  transferParams,
  type TransferSpec,
} from '../ledger/ledger';

export interface OrderRow {
  id: number;
  user_id: number;
  /** Real or practice money (issue 19); fixed at placement. */
  mode: TradeMode;
  product_id: string;
  direction: 'up' | 'down';
  amount: number;
  duration: number;
  rate_bp: number;
  /** The first tick after acceptance; null until the worker has found it on the tape. */
  entry_seq: number | null;
  entry_ts: number | null;
  entry_price: number | null;
  created_at: Date;
  accepted_ms: number;
  expires_at: Date;
  expires_ms: number;
  status: 'open' | 'won' | 'lost' | 'draw' | 'void' | 'sold';
  exit_seq: number | null;
  exit_ts: number | null;
  exit_price: number | null;
  payout: number | null;
  settled_at: Date | null;
  void_reason: string | null;
  /** A sold order's other inputs (sale.ts): acceptance of the sell (db clock, ms), σ, spread. */
  sell_requested_ms: number | null;
  sell_annual_vol: number | null;
  sell_spread_bp: number | null;
  /** An order at a clock time: which minute it ends at (migration 0037); null for a duration. */
  expiry: ClockExpiry | null;
}

/** Every column of an order row, in OrderRow's order (settlement.repo.ts reads the same). */
export const columns = `id, user_id, mode, product_id, direction, amount, duration, rate_bp, entry_seq, entry_ts, entry_price,
  created_at, accepted_ms, expires_at, expires_ms, status, exit_seq, exit_ts, exit_price, payout, settled_at, void_reason,
  sell_requested_ms, sell_annual_vol, sell_spread_bp, expiry`;

/** A new order as placement makes it (acceptance and expiry come from the database's clock). */
export interface NewOrder {
  userId: number;
  mode: TradeMode;
  productId: string;
  direction: string;
  amount: number;
  /** Seconds; for an order at a clock time, its rate's band (the row gets the time left). */
  duration: number;
  rateBp: number;
  /** An order at a clock time: which minute, and that minute's end (epoch ms). */
  clock?: { expiry: ClockExpiry; expiresAt: number } | null;
  /**
   * Its Idempotency-Key and the hash of its request, recorded with the order in the same
   * statement (the key's answer is the order as placed: `placedAnswer`). A key already recorded
   * fails the statement (SQLSTATE 23505) and writes nothing.
   */
  idempotency?: { key: string; requestHash: string } | null;
}

/**
 * Accepts many orders and moves each one's stake (available → in orders of its mode) in one
 * statement: the order rows, then the ledger's `ledger_transfer` with one transfer per order (the
 * same movement `transfer` makes, with the order's id in its ref). Alone, the statement is its own
 * transaction: every order and stake is written or none is, and an overdraft of any one (SQLSTATE
 * 23514, a 409 INSUFFICIENT_BALANCE here) writes nothing. Two orders of one user draw on the
 * balance in list order. Returns the rows in the list's order. An order with `idempotency` has
 * its key recorded in the same statement, linked to it (`idempotency_keys.order_id`).
 */
export async function insertOrdersWithStakes(
  db: Queryable,
  list: readonly NewOrder[],
): Promise<OrderRow[]> {
  const stakes = list.map((o): TransferSpec => ({
    kind: 'order_stake',
    userId: o.userId,
    legs: [
      { account: { user: o.userId, kind: orderAccounts[o.mode].available }, amount: -o.amount },
      { account: { user: o.userId, kind: orderAccounts[o.mode].inOrders }, amount: o.amount },
    ],
  }));
  // The transfers' refs are the one value the orders decide: built in SQL from the new ids, which
  // are drawn first so that each transfer's ref names its own order.
  const [kinds, users, , modes, ...legs] = transferParams.values(
    stakes,
    stakes.flatMap((t, i) => t.legs.map((l) => ({ ord: i + 1, ...l }))),
  );
  const placed = db.query<OrderRow>(
    `WITH v AS MATERIALIZED (
       SELECT nextval('orders_id_seq') AS id, v.*
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::int[], $6::int[], $7::text[],
                   $16::text[], $17::bigint[], $18::text[], $19::text[])
            WITH ORDINALITY AS v(user_id, product_id, direction, amount, duration, rate_bp, mode, expiry, ends_ms,
                                 idem_key, request_hash, n)
     ), k AS (
       INSERT INTO idempotency_keys (user_id, key, request_hash, status, order_id)
       SELECT v.user_id, v.idem_key, v.request_hash, 201, v.id FROM v
       WHERE v.idem_key IS NOT NULL ORDER BY v.user_id, v.idem_key
     ), o AS (
       INSERT INTO orders (id, user_id, product_id, direction, amount, duration, rate_bp, created_at, accepted_ms, expires_at, expires_ms, mode, expiry)
       OVERRIDING SYSTEM VALUE
       SELECT v.id, v.user_id, v.product_id, v.direction, v.amount,
              coalesce(((v.ends_ms - x.ms) / 1000)::int, v.duration), v.rate_bp, x.a, x.ms,
              coalesce(to_timestamp(v.ends_ms / 1000.0), x.a + make_interval(secs => v.duration)),
              coalesce(v.ends_ms, x.ms + v.duration * 1000), v.mode, v.expiry
       FROM v, (SELECT now() AS a, floor(extract(epoch FROM now()) * 1000)::bigint AS ms) x
       ORDER BY v.n
       RETURNING ${columns}
     ), t AS (
       SELECT count(*) AS transfers FROM ledger_transfer(
         $8::text[], $9::bigint[], (SELECT array_agg('order:' || v.id ORDER BY v.n) FROM v), $10::text[],
         $11::int[], $12::bigint[], $13::text[], $14::bigint[], $15::text[])
     )
     SELECT o.* FROM o JOIN v ON v.id = o.id CROSS JOIN t ORDER BY v.n`,
    [
      list.map((o) => o.userId),
      list.map((o) => o.productId),
      list.map((o) => o.direction),
      list.map((o) => o.amount),
      list.map((o) => o.duration),
      list.map((o) => o.rateBp),
      list.map((o) => o.mode),
      kinds,
      users,
      modes,
      ...legs,
      list.map((o) => o.clock?.expiry ?? null),
      list.map((o) => o.clock?.expiresAt ?? null),
      list.map((o) => o.idempotency?.key ?? null),
      list.map((o) => o.idempotency?.requestHash ?? null),
    ],
    { prepare: true },
  );
  const { rows } = await placed.catch(refusePlacement);
  if (rows.length !== list.length) throw new Error('placement: an order was not written');
  return rows;
}

/**
 * A refused placement's reason: a clock-time order accepted too late for its minute (its check
 * passed with a second to spare, so only a placement held up that long meets this), else an
 * overdraft.
 */
function refusePlacement(err: unknown): never {
  if (
    pgErrorCode(err) === '23514' &&
    (err as { constraint?: string }).constraint === 'orders_clock_expiry'
  )
    throw conflict('EXPIRY_TOO_SOON', 'Less than 30 s were left in that minute', 'expiry');
  return refuseOverdraft(err);
}

export async function orderOfUser(
  db: Queryable,
  userId: number,
  id: number,
): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${columns} FROM orders WHERE id = $1 AND user_id = $2`,
    [id, userId],
  );
  return rows[0] ?? null;
}

export async function ordersOfUser(
  db: Queryable,
  userId: number,
  q: { status?: 'open' | 'closed'; mode: TradeMode; limit: number; before?: number },
): Promise<OrderRow[]> {
  const statusClause =
    q.status === 'open'
      ? "AND status = 'open'"
      : q.status === 'closed'
        ? "AND status <> 'open'"
        : '';
  const { rows } = await db.query<OrderRow>(
    `SELECT ${columns} FROM orders WHERE user_id = $1 AND mode = $4 ${statusClause} AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
    [userId, q.before ?? null, q.limit, q.mode],
  );
  return rows;
}

/**
 * Σ(payout − stake) over settled orders of each mode: all of them, and those settled since
 * `since`. Real and practice figures never add up: each mode has its own.
 */
export async function profitAndLoss(
  db: Queryable,
  userIds: readonly number[],
  since: Date,
): Promise<Map<number, Record<TradeMode, { total: number; today: number }>>> {
  const { rows } = await db.query<{
    user_id: number;
    mode: TradeMode;
    total: string;
    today: string;
  }>(
    `SELECT user_id, mode, coalesce(sum(payout - amount), 0)::text AS total,
            coalesce(sum(payout - amount) FILTER (WHERE settled_at >= $2), 0)::text AS today
     FROM orders WHERE user_id = ANY($1::bigint[]) AND status <> 'open' GROUP BY user_id, mode`,
    [userIds, since],
  );
  const out = new Map(
    userIds.map((id) => [id, { real: { total: 0, today: 0 }, practice: { total: 0, today: 0 } }]),
  );
  for (const r of rows)
    out.get(Number(r.user_id))![r.mode] = { total: Number(r.total), today: Number(r.today) };
  return out;
}

/** Whether the user has an open order of this mode. */
export async function hasOpenOrders(
  db: Queryable,
  userId: number,
  mode: TradeMode,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM orders WHERE user_id = $1 AND mode = $2 AND status = 'open' LIMIT 1`,
    [userId, mode],
  );
  return rowCount > 0;
}

/** One mode's house figures: what was placed, what is open, what the house made. */
export interface HouseFigures {
  placements: number;
  volume: number;
  openOrders: number;
  /** Stakes of open orders: what the house stands to pay out beyond them is `openPayout − exposure`. */
  exposure: number;
  /** Σ payout of open orders if every one won. */
  openPayout: number;
  settled: number;
  /** Σ(stake − payout) over settled orders: the house's result. */
  houseResult: number;
}

/** Placements, exposure and the house's result per mode (GET /api/ops/house). */
export async function houseFigures(db: Queryable): Promise<Record<TradeMode, HouseFigures>> {
  const { rows } = await db.query<{
    mode: TradeMode;
    placements: string;
    volume: string;
    open_orders: string;
    exposure: string;
    open_payout: string;
    settled: string;
    house_result: string;
  }>(
    `SELECT mode, count(*)::text AS placements, coalesce(sum(amount), 0)::text AS volume,
            count(*) FILTER (WHERE status = 'open')::text AS open_orders,
            coalesce(sum(amount) FILTER (WHERE status = 'open'), 0)::text AS exposure,
            coalesce(sum(amount + amount * rate_bp / 10000) FILTER (WHERE status = 'open'), 0)::text AS open_payout,
            count(*) FILTER (WHERE status <> 'open')::text AS settled,
            coalesce(sum(amount - payout) FILTER (WHERE status <> 'open'), 0)::text AS house_result
     FROM orders GROUP BY mode`,
  );
  const zero = (): HouseFigures => ({
    placements: 0,
    volume: 0,
    openOrders: 0,
    exposure: 0,
    openPayout: 0,
    settled: 0,
    houseResult: 0,
  });
  const out = { real: zero(), practice: zero() };
  for (const r of rows)
    out[r.mode] = {
      placements: Number(r.placements),
      volume: Number(r.volume),
      openOrders: Number(r.open_orders),
      exposure: Number(r.exposure),
      openPayout: Number(r.open_payout),
      settled: Number(r.settled),
      houseResult: Number(r.house_result),
    };
  return out;
}

/** The acceptance time (epoch ms) of the oldest open order of each product that has one. */
export async function oldestOpenByProduct(db: Queryable): Promise<Map<string, number>> {
  const { rows } = await db.query<{ product_id: string; accepted: number }>(
    `SELECT product_id, min(accepted_ms) AS accepted FROM orders WHERE status = 'open' GROUP BY product_id`,
  );
  return new Map(rows.map((r) => [r.product_id, r.accepted]));
}

/**
 * What settlement owes now (the `settlement_backlog_orders` gauge): open orders past their
 * expiry, and open orders still waiting for their entry tick. Both stay near zero while workers
 * keep up; a growing figure means settlement is stuck or the feed is away.
 */
export async function countSettlementBacklog(
  db: Queryable,
): Promise<{ overdue: number; awaitingEntry: number }> {
  const { rows } = await db.query<{ overdue: number | string; awaiting_entry: number | string }>(
    `SELECT count(*) FILTER (WHERE expires_at <= now()) AS overdue,
            count(*) FILTER (WHERE entry_seq IS NULL) AS awaiting_entry
       FROM orders WHERE status = 'open'`,
  );
  return {
    overdue: Number(rows[0]?.overdue ?? 0),
    awaitingEntry: Number(rows[0]?.awaiting_entry ?? 0),
  };
}

/**
 * What the house owes on open real orders, per product and direction: the stakes, and what it
 * pays if that direction wins (stake + stake × rate; the other direction's stakes are then kept).
 */
export async function openExposure(
  db: Queryable,
): Promise<{ product_id: string; direction: 'up' | 'down'; stake: string; pays: string }[]> {
  const { rows } = await db.query<{
    product_id: string;
    direction: 'up' | 'down';
    stake: string;
    pays: string;
  }>(
    `SELECT product_id, direction, sum(amount)::text AS stake,
            sum(amount + amount * rate_bp / 10000)::text AS pays
     FROM orders WHERE status = 'open' AND mode = 'real'
     GROUP BY product_id, direction ORDER BY product_id, direction`,
  );
  return rows;
}

/** Real-money activity: placements since `recent`, and the house's result on orders settled since `dayStart`. */
/**
 * Orders settled since `since` per product, real and practice together (the feed is one for
 * both), with the voids among them by reason: the operators' void rate.
 */
export async function voidsSince(
  db: Queryable,
  since: Date,
): Promise<Map<string, { settled: number; feedStale: number; noEntryTick: number }>> {
  const { rows } = await db.query<{
    product_id: string;
    settled: number;
    feed_stale: number;
    no_entry_tick: number;
  }>(
    `SELECT product_id, count(*)::int AS settled,
            count(*) FILTER (WHERE void_reason = 'FEED_STALE')::int AS feed_stale,
            count(*) FILTER (WHERE void_reason = 'NO_ENTRY_TICK')::int AS no_entry_tick
     FROM orders WHERE settled_at >= $1 GROUP BY product_id`,
    [since],
  );
  return new Map(
    rows.map((r) => [
      r.product_id,
      { settled: r.settled, feedStale: r.feed_stale, noEntryTick: r.no_entry_tick },
    ]),
  );
}

export async function realActivity(
  db: Queryable,
  recent: Date,
  dayStart: Date,
): Promise<{ placements: number; houseResult: number }> {
  const { rows } = await db.query<{ placements: string; house_result: string }>(
    `SELECT (SELECT count(*) FROM orders WHERE mode = 'real' AND created_at >= $1)::text AS placements,
            (SELECT coalesce(sum(amount - payout), 0) FROM orders
              WHERE mode = 'real' AND settled_at >= $2)::text AS house_result`,
    [recent, dayStart],
  );
  return {
    placements: Number(rows[0]?.placements ?? 0),
    houseResult: Number(rows[0]?.house_result ?? 0),
  };
}

/**
 * Real orders closed early ("sold", docs/FAIRNESS.md, Early close) since `dayStart`: how many,
 * and the house's result on them, Σ(stake − the sale's value). Part of the day's house result.
 */
export async function realEarlyClosesSince(
  db: Queryable,
  dayStart: Date,
): Promise<{ count: number; houseResult: number }> {
  const { rows } = await db.query<{ n: string; house_result: string }>(
    `SELECT count(*)::text AS n, coalesce(sum(amount - payout), 0)::text AS house_result
     FROM orders WHERE mode = 'real' AND status = 'sold' AND settled_at >= $1`,
    [dayStart],
  );
  return { count: Number(rows[0]?.n ?? 0), houseResult: Number(rows[0]?.house_result ?? 0) };
}
