import type { Queryable } from '@infra/db';
import type { ModelParams, PeriodStart, TapeTick } from './fairness';
import { decodeState, encodeState } from './fairness';

/** A period as stored: the secret travels only between the database and the simulator. */
export interface PeriodRow {
  productId: string;
  periodStart: number;
  periodEnd: number;
  commitment: string;
  /** Hex; never leaves the server before `revealedAt`. */
  secret: string;
  model: ModelParams;
  committedAt: number;
  start: PeriodStart | null;
  revealedAt: number | null;
}

interface Raw {
  product_id: string;
  period_start: number;
  period_end: number;
  commitment: string;
  secret: string;
  model: ModelParams | string;
  committed_at: number;
  start_seq: number | null;
  start_ts: number | null;
  start_log_price: string | null;
  start_log_vol: string | null;
  revealed_at: Date | null;
}

const columns = `product_id, period_start, period_end, commitment, secret, model, committed_at,
  start_seq, start_ts, start_log_price, start_log_vol, revealed_at`;

function fromRaw(r: Raw): PeriodRow {
  return {
    productId: r.product_id,
    periodStart: r.period_start,
    periodEnd: r.period_end,
    commitment: r.commitment,
    secret: r.secret,
    model: typeof r.model === 'string' ? (JSON.parse(r.model) as ModelParams) : r.model,
    committedAt: r.committed_at,
    start:
      r.start_seq !== null && r.start_log_price !== null && r.start_log_vol !== null
        ? {
            seq: r.start_seq,
            ts: r.start_ts,
            state: decodeState({ logPrice: r.start_log_price, logVol: r.start_log_vol }),
          }
        : null,
    revealedAt: r.revealed_at?.getTime() ?? null,
  };
}

/**
 * Stores new periods; a period that exists already (another simulator, or an earlier start) is
 * kept as it is. Returns nothing: callers read the stored rows back, which are what counts.
 */
export async function insertPeriods(
  db: Queryable,
  rows: readonly Omit<PeriodRow, 'start' | 'revealedAt'>[],
): Promise<void> {
  if (!rows.length) return;
  const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
  await db.query(
    `INSERT INTO fairness_periods (product_id, period_start, period_end, commitment, secret, model, committed_at)
     SELECT p, s, e, c, x, m::jsonb, a
     FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::bigint[])
          AS v(p, s, e, c, x, m, a)
     ON CONFLICT (product_id, period_start) DO NOTHING`,
    [
      col('productId'),
      col('periodStart'),
      col('periodEnd'),
      col('commitment'),
      col('secret'),
      rows.map((r) => JSON.stringify(r.model)),
      col('committedAt'),
    ],
  );
}

/** The stored periods starting in [from, to] (the simulator's working set), with their secrets. */
export async function periodsStartingBetween(
  db: Queryable,
  from: number,
  to: number,
): Promise<PeriodRow[]> {
  const { rows } = await db.query<Raw>(
    `SELECT ${columns} FROM fairness_periods WHERE period_start >= $1 AND period_start <= $2`,
    [from, to],
  );
  return rows.map(fromRaw);
}

/** The period of one product that holds `ts`, or null. */
export async function periodAt(
  db: Queryable,
  productId: string,
  ts: number,
): Promise<PeriodRow | null> {
  const { rows } = await db.query<Raw>(
    `SELECT ${columns} FROM fairness_periods
     WHERE product_id = $1 AND period_start <= $2 AND period_end > $2`,
    [productId, ts],
  );
  return rows[0] ? fromRaw(rows[0]) : null;
}

/**
 * Records where periods start (with their first tick, in the tape writer's transaction). A start
 * already recorded is kept.
 */
export async function recordPeriodStarts(
  db: Queryable,
  starts: readonly { productId: string; periodStart: number; start: PeriodStart }[],
): Promise<void> {
  for (const s of starts) {
    const state = encodeState(s.start.state);
    await db.query(
      `UPDATE fairness_periods SET start_seq = $3, start_ts = $4, start_log_price = $5, start_log_vol = $6
       WHERE product_id = $1 AND period_start = $2 AND start_seq IS NULL`,
      [s.productId, s.periodStart, s.start.seq, s.start.ts, state.logPrice, state.logVol],
    );
  }
}

/** The tape's ticks of one product after `seq` up to `untilTs`, in order (a restart's replay). */
export async function ticksAfter(
  db: Queryable,
  productId: string,
  seq: number,
  untilTs: number,
): Promise<TapeTick[]> {
  const { rows } = await db.query<TapeTick>(
    'SELECT seq, ts, price, qty FROM ticks WHERE product_id = $1 AND seq > $2 AND ts < $3 ORDER BY seq',
    [productId, seq, untilTs],
  );
  return rows;
}

/** Published periods of one product overlapping [from, to], oldest first. */
export async function listPeriods(
  db: Queryable,
  productId: string,
  from: number,
  to: number,
  limit: number,
): Promise<PeriodRow[]> {
  const { rows } = await db.query<Raw>(
    `SELECT ${columns} FROM fairness_periods
     WHERE product_id = $1 AND period_end > $2 AND period_start <= $3
     ORDER BY period_start LIMIT $4`,
    [productId, from, to, limit],
  );
  return rows.map(fromRaw);
}

/**
 * Unrevealed periods that have ended by both clocks: at least `marginMs` ago by the database's
 * (the clock orders are accepted by), and by the simulator's, which has recorded a tick of the
 * product at or after the period's end (so a simulator whose clock lags can no longer be ticking
 * in it). A market that is closed reveals its last periods with its first tick after reopening.
 */
export async function unrevealedEnded(
  db: Queryable,
  marginMs: number,
  limit = 1000,
): Promise<{ productId: string; periodStart: number; periodEnd: number }[]> {
  const { rows } = await db.query<{ product_id: string; period_start: number; period_end: number }>(
    `SELECT product_id, period_start, period_end FROM fairness_periods p
     WHERE revealed_at IS NULL AND period_end + $1 <= floor(extract(epoch FROM now()) * 1000)
       AND EXISTS (SELECT 1 FROM ticks t WHERE t.product_id = p.product_id AND t.ts >= p.period_end)
     ORDER BY period_end LIMIT $2`,
    [marginMs, limit],
  );
  return rows.map((r) => ({
    productId: r.product_id,
    periodStart: r.period_start,
    periodEnd: r.period_end,
  }));
}

/** Marks periods revealed (their secrets become public). */
export async function markRevealed(
  db: Queryable,
  periods: readonly { productId: string; periodStart: number }[],
): Promise<void> {
  if (!periods.length) return;
  await db.query(
    `UPDATE fairness_periods p SET revealed_at = now()
     FROM unnest($1::text[], $2::bigint[]) AS v(product_id, period_start)
     WHERE p.product_id = v.product_id AND p.period_start = v.period_start AND p.revealed_at IS NULL`,
    [periods.map((x) => x.productId), periods.map((x) => x.periodStart)],
  );
}
