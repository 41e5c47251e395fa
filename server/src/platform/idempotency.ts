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
 * The answer stored for (user, key), for a request that must not do its work now (a throttle
 * refused it): null when the key is unknown, or its first request has not committed; 422
 * IDEMPOTENCY_MISMATCH when the key was used with another request. One primary-key read.
 */
export async function storedAnswer<T>(
  db: Queryable,
  opts: { userId: number; key: string; request: unknown },
): Promise<Answer<T> | null> {
  const { rows } = await db.query<{ request_hash: string; status: number | null; body: T | null }>(
    'SELECT request_hash, status, body FROM idempotency_keys WHERE user_id = $1 AND key = $2',
    [opts.userId, opts.key],
  );
  const row = rows[0];
  if (!row || row.status === null) return null;
  if (row.request_hash !== hashRequest(opts.request))
    throw new AppError(
      422,
      'IDEMPOTENCY_MISMATCH',
      'This Idempotency-Key was used with another request',
      'Idempotency-Key',
    );
  return { status: row.status, body: row.body as T };
}

/** A request's (user, key) and the hash of what it asked for, as `idempotent` records them. */
export interface KeyedRequest {
  userId: number;
  key: string;
  requestHash: string;
}

/**
 * The batch form of `idempotent`'s first step, inside the caller's transaction: records many
 * keys at once and returns the indexes of those that were new. A key already recorded (or being
 * recorded by a transaction still running, which this waits for) is not new: its request goes
 * through `idempotent` alone afterwards, to be replayed or refused. Keys are written in (user,
 * key) order, so two batches never wait for each other's keys in a cycle. The list must not hold
 * one (user, key) twice.
 */
export async function recordKeys(
  tx: Queryable,
  list: readonly KeyedRequest[],
): Promise<Set<number>> {
  const { rows } = await tx.query<{ n: number }>(
    `WITH k AS (
       INSERT INTO idempotency_keys (user_id, key, request_hash)
       SELECT v.user_id, v.key, v.request_hash
       FROM unnest($1::bigint[], $2::text[], $3::text[]) AS v(user_id, key, request_hash)
       ORDER BY v.user_id, v.key
       ON CONFLICT DO NOTHING
       RETURNING user_id, key
     )
     SELECT v.n::int AS n FROM k
     JOIN unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS v(user_id, key, n)
       ON v.user_id = k.user_id AND v.key = k.key`,
    [list.map((r) => r.userId), list.map((r) => r.key), list.map((r) => r.requestHash)],
    { prepare: true },
  );
  return new Set(rows.map((r) => r.n - 1));
}

/** The batch form of `idempotent`'s last step: stores each new key's answer. */
export async function storeAnswers(
  tx: Queryable,
  list: readonly { userId: number; key: string; status: number; body: unknown }[],
): Promise<void> {
  await tx.query(
    `UPDATE idempotency_keys k SET status = v.status, body = v.body::jsonb
     FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[]) AS v(user_id, key, status, body)
     WHERE k.user_id = v.user_id AND k.key = v.key`,
    [
      list.map((r) => r.userId),
      list.map((r) => r.key),
      list.map((r) => r.status),
      list.map((r) => JSON.stringify(r.body)),
    ],
    { prepare: true },
  );
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
