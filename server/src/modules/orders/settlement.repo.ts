import type { Queryable } from '@infra/db';
import { TAPE_BACKSTOP_MS } from './exit-rule';
import { columns, type OrderRow } from './orders.repo';

/**
 * The settlement workers' reads and writes of orders: claiming orders whose entry or exit can be
 * decided (FOR UPDATE SKIP LOCKED, with what the tape says), and writing entries and results in
 * one statement per batch (results: settlement-set.repo.ts).
 */

/** An open order with an entry, due by the database clock (`o`: orders). */
export const dueOrder = `o.status = 'open' AND o.expires_at <= now() AND o.entry_seq IS NOT NULL`;

/** Whether a simulator holds a live lease, so the tape is still being written (exit-rule.ts). */
export const feedLive = `EXISTS (SELECT 1 FROM sim_lease l WHERE l.expires_at > now())`;

/** The database clock in epoch ms. */
export const nowMs = `floor(extract(epoch FROM now()) * 1000)::bigint`;

/** `graceOver` of exit-rule.ts in SQL, for a time `at` (epoch ms) and the grace `graceMs`. */
const graceOver = (at: string, graceMs: string) =>
  `(${nowMs} >= ${at} + ${TAPE_BACKSTOP_MS}
    OR (${nowMs} >= ${at} + ${graceMs}::bigint AND NOT ${feedLive}))`;

/**
 * Whether a due order's exit can be decided now: the tape's watermark (in a CTE `mark`) is at or
 * past its expiry, a tick after the expiry is recorded (the product's newest tick, one index
 * lookup: an EXISTS here may become a join that reads every tick of the product for every
 * order), or the grace (`graceMs`, a parameter) is over.
 */
const exitDecidable = (graceMs: string) =>
  `(o.expires_ms <= (SELECT through_ms FROM mark)
    OR o.expires_ms < (SELECT max(a.ts) FROM ticks a WHERE a.product_id = o.product_id)
    OR ${graceOver('o.expires_ms', graceMs)})`;

/** An open order still without an entry (`o`: orders). */
const awaitingEntry = `o.status = 'open' AND o.entry_seq IS NULL`;

/** The end of an order's entry window: acceptance + the max feed delay, at most the duration. */
const entryWindowEnd = (maxFeedDelayMs: string) =>
  `(o.accepted_ms + least(${maxFeedDelayMs}::bigint, o.duration * 1000))`;

/**
 * Whether such an order's entry can be decided now: a tick after its acceptance is recorded, the
 * tape's watermark (CTE `mark`) has passed the window (`maxFeedDelayMs`, at most the duration),
 * or the grace (`graceMs`) after the window is over.
 */
const entryDecidable = (maxFeedDelayMs: string, graceMs: string) =>
  `((SELECT max(t.ts) FROM ticks t WHERE t.product_id = o.product_id) > o.accepted_ms
    OR (SELECT through_ms FROM mark) >= ${entryWindowEnd(maxFeedDelayMs)}
    OR ${graceOver(entryWindowEnd(maxFeedDelayMs), graceMs)})`;

/**
 * Whether any entry or exit can be decided now, without claiming or locking anything: one
 * cheap statement for an idle worker's poll, where a claim is a transaction of three round trips.
 * Of the due orders it looks at the 64 that expired first: while the tape is not yet final
 * through a busy second, asking every due order (10 000 of them, a tick lookup each) cost 30 ms
 * a poll, on every worker, just when settling needs the database. The first to expire are the
 * first the tape's watermark makes final; a later one could only be final before them through a
 * later tick of its product, which the watermark covers while the simulator writes the tape, and
 * otherwise its turn comes at most the grace after the first ones'.
 */
export async function anythingDecidable(
  db: Queryable,
  q: { maxFeedDelayMs: number; graceMs: number },
): Promise<boolean> {
  const { rows } = await db.query<{ decidable: boolean }>(
    `WITH mark AS (SELECT through_ms FROM tape_watermark)
     SELECT EXISTS (SELECT 1 FROM orders o WHERE ${awaitingEntry} AND ${entryDecidable('$1', '$2')})
         OR EXISTS (SELECT 1 FROM (SELECT * FROM orders o WHERE ${dueOrder} ORDER BY o.expires_at LIMIT 64) o
                    WHERE ${exitDecidable('$2')}) AS decidable`,
    [q.maxFeedDelayMs, q.graceMs],
    { prepare: true },
  );
  return rows[0]!.decidable;
}

export interface AwaitingEntry extends OrderRow {
  f_seq: number | null;
  f_ts: number | null;
  f_price: number | null;
  since_acceptance_ms: number;
  tape_through_ms: number;
  feed_live: boolean;
}

/**
 * Claims up to `limit` open orders without an entry whose entry can be decided now, skipping rows
 * other workers hold, with the first tick recorded after each acceptance (ties by seq). Decidable:
 * a tick after acceptance is recorded, or the window (`maxFeedDelayMs`, at most the duration) and
 * the grace have passed by the database clock. Orders still waiting for their tick are not
 * claimed, so a product whose feed is late never holds back the others' entries.
 */
export async function claimAwaitingEntry(
  tx: Queryable,
  q: { limit: number; maxFeedDelayMs: number; graceMs: number },
): Promise<AwaitingEntry[]> {
  const { rows } = await tx.query<AwaitingEntry>(
    `WITH mark AS (SELECT through_ms FROM tape_watermark), waiting AS (
       SELECT ${columns} FROM orders o
       WHERE ${awaitingEntry} AND ${entryDecidable('$2', '$3')}
       ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED
     )
     SELECT waiting.*, f.seq AS f_seq, f.ts AS f_ts, f.price AS f_price,
            ${nowMs} - waiting.accepted_ms AS since_acceptance_ms,
            (SELECT through_ms FROM mark) AS tape_through_ms, ${feedLive} AS feed_live
     FROM waiting
     LEFT JOIN LATERAL (
       SELECT seq, ts, price FROM ticks t
       WHERE t.product_id = waiting.product_id AND t.ts > waiting.accepted_ms
       ORDER BY t.ts, t.seq LIMIT 1
     ) f ON true`,
    [q.limit, q.maxFeedDelayMs, q.graceMs],
    { prepare: true },
  );
  return rows;
}

/**
 * Writes many entries in one statement. Only orders still open and without an entry change, and
 * only with a tick after their acceptance: a second writer changes nothing.
 */
export async function fillEntries(
  tx: Queryable,
  list: readonly { id: number; entry: { seq: number; ts: number; price: number } }[],
): Promise<OrderRow[]> {
  const { rows } = await tx.query<OrderRow>(
    `UPDATE orders o SET entry_seq = v.seq, entry_ts = v.ts, entry_price = v.price
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[]) AS v(id, seq, ts, price)
     WHERE o.id = v.id AND o.status = 'open' AND o.entry_seq IS NULL AND v.ts > o.accepted_ms
     RETURNING ${columns.replace(/(\w+)/g, 'o.$1')}`,
    [
      list.map((x) => x.id),
      list.map((x) => x.entry.seq),
      list.map((x) => x.entry.ts),
      list.map((x) => x.entry.price),
    ],
  );
  return rows;
}

/**
 * Writes many results in one statement; only orders still open change. Returns what the database
 * adds to each order it changed (its id and settlement time): the caller has the rest.
 */
export async function markSettledMany(
  tx: Queryable,
  list: readonly {
    id: number;
    status: string;
    exit: { seq: number; ts: number; price: number } | null;
    payout: number;
    voidReason: string | null;
  }[],
): Promise<{ id: number; settled_at: Date }[]> {
  const { rows } = await tx.query<{ id: number; settled_at: Date }>(
    `UPDATE orders o SET status = v.status, exit_seq = v.exit_seq, exit_ts = v.exit_ts, exit_price = v.exit_price,
            payout = v.payout, void_reason = v.void_reason, settled_at = now()
     FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[])
          AS v(id, status, exit_seq, exit_ts, exit_price, payout, void_reason)
     WHERE o.id = v.id AND o.status = 'open'
     RETURNING o.id, o.settled_at`,
    [
      list.map((x) => x.id),
      list.map((x) => x.status),
      list.map((x) => x.exit?.seq ?? null),
      list.map((x) => x.exit?.ts ?? null),
      list.map((x) => x.exit?.price ?? null),
      list.map((x) => x.payout),
      list.map((x) => x.voidReason),
    ],
    { prepare: true },
  );
  return rows;
}
