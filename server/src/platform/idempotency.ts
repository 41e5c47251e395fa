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

const hashRequest = (request: unknown) =>
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
  opts: { userId: number; key: string | undefined; request: unknown },
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
      const { rows } = await tx.query<{ request_hash: string; status: number; body: T }>(
        'SELECT request_hash, status, body FROM idempotency_keys WHERE user_id = $1 AND key = $2',
        [opts.userId, key],
      );
      const first = rows[0]!;
      if (first.request_hash !== requestHash)
        throw new AppError(
          422,
          'IDEMPOTENCY_MISMATCH',
          'This Idempotency-Key was used with another request',
          'Idempotency-Key',
        );
      return { status: first.status, body: first.body, replayed: true };
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
