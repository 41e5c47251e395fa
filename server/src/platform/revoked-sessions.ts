import type { Redis } from 'ioredis';
import type { Logger } from '@infra/logger';
import type { UserEvents } from './user-events';

/**
 * Sessions ended recently, by token hash: what a gateway checks a socket ticket against, since a
 * ticket issued before a logout still carries a valid signature (docs/DECISIONS.md, Socket
 * tickets). A record matters as long as a ticket of that session can: SOCKET_TICKET_TTL_MS from
 * the end. Scaled: a Redis sorted set every api writes and every gateway reads (one call per
 * check). Embedded: a map in the one process.
 */
export interface RevokedSessions {
  /** Records that these sessions ended; rejects when the record could not be written. */
  record(tokenHashes: readonly string[]): Promise<void>;
  /** Whether the session was ended; rejects when that cannot be known now (Redis away). */
  isRevoked(tokenHash: string): Promise<boolean>;
}

const revokedSessionsKey = (namespace: string) => `${namespace}:revoked-sessions`;

export function memoryRevokedSessions(ttlMs: number, now = Date.now): RevokedSessions {
  const until = new Map<string, number>();
  const prune = (t: number) => {
    for (const [hash, end] of until) if (end <= t) until.delete(hash);
  };
  return {
    record(tokenHashes) {
      const t = now();
      prune(t);
      for (const hash of tokenHashes) until.set(hash, t + ttlMs);
      return Promise.resolve();
    },
    isRevoked: (tokenHash) => Promise.resolve((until.get(tokenHash) ?? 0) > now()),
  };
}

/**
 * The sorted set `<namespace>:revoked-sessions`, scored by when each record stops mattering.
 * Writing prunes what has expired; the key itself expires after a quiet TTL.
 */
export function redisRevokedSessions(
  redis: Pick<Redis, 'zadd' | 'zremrangebyscore' | 'pexpire' | 'zscore'>,
  namespace: string,
  ttlMs: number,
  now = Date.now,
): RevokedSessions {
  const key = revokedSessionsKey(namespace);
  return {
    async record(tokenHashes) {
      if (!tokenHashes.length) return;
      const t = now();
      await redis.zadd(key, ...tokenHashes.flatMap((hash) => [t + ttlMs, hash]));
      await Promise.all([redis.zremrangebyscore(key, '-inf', t), redis.pexpire(key, ttlMs)]);
    },
    async isRevoked(tokenHash) {
      const score = await redis.zscore(key, tokenHash);
      return score !== null && Number(score) > now();
    },
  };
}

/** How often a revocation record that could not be written is tried again. */
const RECORD_RETRY_MS = 1000;

/**
 * User events whose `endSessions` first records the revocation, then tells the sockets: a gateway
 * that admits a ticket after the disconnect thus always finds the record. A record that could not
 * be written (Redis away) is tried again until it no longer matters; the sockets are told at once
 * all the same, and gateways refuse tickets (UNAVAILABLE) while they cannot read the set either.
 */
export function recordingRevocations<E extends UserEvents>(
  events: E,
  revoked: RevokedSessions,
  ttlMs: number,
  log: Logger,
): E {
  const recordUntilDone = (tokenHashes: readonly string[], giveUpAt: number) =>
    revoked.record(tokenHashes).catch((err: unknown) => {
      if (Date.now() + RECORD_RETRY_MS > giveUpAt) return;
      log.warn({ err: (err as Error).message }, 'session revocation not recorded yet; retrying');
      setTimeout(() => void recordUntilDone(tokenHashes, giveUpAt), RECORD_RETRY_MS).unref();
    });
  return {
    ...events,
    endSessions(tokenHashes, reason) {
      if (!tokenHashes.length) return;
      void recordUntilDone(tokenHashes, Date.now() + ttlMs).finally(() =>
        events.endSessions(tokenHashes, reason),
      );
    },
  };
}
