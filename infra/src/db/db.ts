/**
 * The database interface every repository uses. Two implementations: PGlite (embedded, the
 * default) and PostgreSQL through `pg`. Domain code never imports either driver.
 */
export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * Keep the statement prepared on each connection (PostgreSQL: parsed and planned once, then
   * only bound and run). For the few statements every request runs; the SQL text must be one
   * fixed string, never one built from values. PGlite runs every statement as it comes.
   */
  prepare?: boolean;
}

export interface Queryable {
  query: <R = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ) => Promise<QueryResult<R>>;
  /** Runs a multi-statement script (migrations). */
  exec: (sql: string) => Promise<void>;
}

export interface TransactionOptions {
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
  /** Attempts in all, counting the first; retried on serialization failure and deadlock. */
  attempts?: number;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction; retries the whole function on 40001 and 40P01. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** True when the database answers. */
  ping(): Promise<boolean>;
  /** The connection pool's use (PostgreSQL); absent for a database without a pool. */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

const retryableCodes = new Set(['40001', '40P01']);

export function isRetryable(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    retryableCodes.has(String((err as { code?: unknown }).code))
  );
}

/** Postgres error code of a driver error, if any (both drivers expose `code`). */
export function pgErrorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) return String(err.code);
  return undefined;
}

/** Shared retry loop: jittered exponential backoff between attempts. */
export async function withRetry<T>(attempts: number, run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isRetryable(err) || attempt >= attempts) throw err;
      const delay = Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random());
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

export function beginStatement(options?: TransactionOptions): string {
  return options?.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation.toUpperCase()}` : 'BEGIN';
}

/** int8 arrives as text; money fits in a double exactly only below 2^53, so check. */
export function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n))
    throw new RangeError(`int8 value ${value} is outside the safe integer range`);
  return n;
}

/** SQLSTATEs of a database that is away or cannot take this statement now (not a bad statement). */
const outageStates = /^(08|57P0[123]|53300|25006|25P03)/;
/** Driver and socket errors of a connection that failed, timed out or was cut. */
const outageCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const outageMessages =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout|database thread is gone|connection is closed/i;

/**
 * Whether `err` says the database is out of reach (down, restarting, failing over, a read-only
 * replica after a promotion elsewhere, too many connections), as opposed to a fault of the
 * statement: the api answers the first 503 UNAVAILABLE, retryable, never 500.
 */
export function isDatabaseOutage(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const raw = (err as { code?: unknown }).code;
  const code = typeof raw === 'string' ? raw : '';
  if (outageStates.test(code) || outageCodes.has(code)) return true;
  return outageMessages.test((err as { message?: unknown }).message as string);
}
