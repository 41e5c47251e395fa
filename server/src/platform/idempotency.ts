import { createHash } from 'node:crypto';
import type { Db, Queryable } from './db';
import { AppError, validationFailed } from './http/errors';

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

/** Keys older than `days` (at least 1) go; called by a daily job. */
export async function pruneIdempotencyKeys(db: Queryable, days = 2): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(days => $1)',
    [Math.max(1, days)],
  );
  return rowCount;
}
