import { createHash } from 'node:crypto';
import type { Db, Queryable } from '@infra/db';
import { periodicJob } from './periodic';
import { AppError, validationFailed } from './http/errors';
import type { Logger } from '@infra/logger';

export interface Answer<T> {
  status: number;
  body: T;
}

/** The Idempotency-Key header: absent, or 1–255 visible ASCII characters. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || key.length > 255 || !/^[\x21-\x7e]+$/.test(key))
    throw validationFailed(
      'Idempotency-Key',
      'Idempotency-Key must be 1-255 visible ASCII characters',
    );
  return key;
}

/** The hash a key's record keeps of its request (a repeat must ask for the same thing). */
export const hashRequest = (request: unknown) =>
  createHash('sha256').update(JSON.stringify(request)).digest('hex');

/**
 * Runs a money-moving request once per (user, key): the key row, the work and the stored answer
 * commit in one transaction. A repeat with the same request replays the first answer; with a
 * different request it is refused (422 IDEMPOTENCY_MISMATCH). A concurrent repeat waits on the
 * key's unique index until the first commits, then replays. A request that fails stores nothing,
 * so it may be retried.
 */
export async function idempotent<T>(
  db: Db,
  opts: KeyOptions<T> & { key: string | undefined },
  run: (tx: Queryable) => Promise<Answer<T>>,
): Promise<Answer<T> & { replayed: boolean }> {
  if (!opts.key) return { ...(await db.transaction(run)), replayed: false };
  const key = opts.key;
  const requestHash = hashRequest(opts.request);
  return db.transaction(async (tx) => {
    const inserted = await tx.query(
      'INSERT INTO idempotency_keys (user_id, key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [opts.userId, key, requestHash],
    );
    if (inserted.rowCount === 0) {
      const first = (await keyRow<T>(tx, opts.userId, key))!;
      if (first.request_hash !== requestHash) throw mismatch();
      return { ...(await answerOf(tx, first, opts)), replayed: true };
    }
    const answer = await run(tx);
    await tx.query(
      'UPDATE idempotency_keys SET status = $3, body = $4 WHERE user_id = $1 AND key = $2',
      [opts.userId, key, answer.status, JSON.stringify(answer.body)],
    );
    return { ...answer, replayed: false };
  });
}

/**
 * The answer stored for (user, key), for a request that must not do its work now (a throttle
 * refused it): null when the key is unknown, or its first request has not committed; 422
 * IDEMPOTENCY_MISMATCH when the key was used with another request. One primary-key read (and the
 * order's, for a key recorded with its order).
 */
export async function storedAnswer<T>(
  db: Queryable,
  opts: KeyOptions<T> & { key: string },
): Promise<Answer<T> | null> {
  const row = await keyRow<T>(db, opts.userId, opts.key);
  if (!row || row.status === null) return null;
  if (row.request_hash !== hashRequest(opts.request)) throw mismatch();
  return answerOf(db, row, opts);
}

/** Who asks, and for what; `linked`: the answer of a key recorded with its order. */
interface KeyOptions<T> {
  userId: number;
  request: unknown;
  /**
   * A key recorded with the order it placed (`idempotency_keys.order_id`, orders.repo.ts
   * `insertOrdersWithStakes`) stores no body: its answer is built again from that order.
   */
  linked?: (db: Queryable, orderId: number) => Promise<Answer<T>>;
}

interface KeyRow<T> {
  request_hash: string;
  status: number | null;
  body: T | null;
  order_id: string | null;
}

const keyRow = async <T>(db: Queryable, userId: number, key: string) =>
  (
    await db.query<KeyRow<T>>(
      'SELECT request_hash, status, body, order_id FROM idempotency_keys WHERE user_id = $1 AND key = $2',
      [userId, key],
    )
  ).rows[0];

const mismatch = () =>
  new AppError(
    422,
    'IDEMPOTENCY_MISMATCH',
    'This Idempotency-Key was used with another request',
    'Idempotency-Key',
  );

/** A recorded key's answer: its stored body, or (linked to an order) built from the order. */
function answerOf<T>(db: Queryable, row: KeyRow<T>, opts: KeyOptions<T>): Promise<Answer<T>> {
  if (row.order_id === null) return Promise.resolve({ status: row.status!, body: row.body as T });
  if (!opts.linked)
    throw new Error('idempotency: a key linked to an order, and no way to answer it');
  return opts.linked(db, Number(row.order_id));
}

/**
 * How long a key is kept: the contract promises a replay for at least 24 h; two days leave a
 * margin for clients that retry from a queue after a long outage.
 */
export const IDEMPOTENCY_RETENTION_HOURS = 48;

/**
 * Deletes the keys older than `retentionHours` (never less than 24) and returns how many went.
 * In batches, so no statement holds many row locks for long; `SKIP LOCKED` lets every api
 * process prune at once without waiting on, or deadlocking with, another.
 */
export async function pruneIdempotencyKeys(
  db: Queryable,
  { retentionHours = IDEMPOTENCY_RETENTION_HOURS, batchSize = 5000 } = {},
): Promise<number> {
  const hours = Math.max(24, retentionHours);
  let removed = 0;
  for (;;) {
    const { rowCount } = await db.query(
      `DELETE FROM idempotency_keys WHERE (user_id, key) IN (
         SELECT user_id, key FROM idempotency_keys
         WHERE created_at < now() - make_interval(hours => $1)
         LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [hours, batchSize],
    );
    removed += rowCount;
    if (rowCount < batchSize) return removed;
  }
}

export interface IdempotencyPrunerDeps {
  db: Queryable;
  log?: Pick<Logger, 'info' | 'debug' | 'error'>;
  retentionHours?: number;
  batchSize?: number;
}

/**
 * Keeps `idempotency_keys` from growing forever: every api process prunes at start and then
 * every `everyMs` (hourly by default; keys live two days, so an hour's delay is nothing).
 * `runOnce` is the seam tests use; one run at a time per process.
 */
export function createIdempotencyPruner(d: IdempotencyPrunerDeps) {
  return periodicJob({
    run: () =>
      pruneIdempotencyKeys(d.db, { retentionHours: d.retentionHours, batchSize: d.batchSize }),
    defaultEveryMs: 3_600_000,
    done: (removed) =>
      removed
        ? d.log?.info({ removed }, 'idempotency keys pruned')
        : d.log?.debug({ removed }, 'idempotency keys pruned'),
    failed: (err) => d.log?.error({ err }, 'pruning idempotency keys failed; will retry'),
  });
}
