import { Redis, type RedisOptions } from 'ioredis';

/**
 * Where Redis is: a URL, or a master that Redis Sentinel names (`sentinels`, `masterName`), in
 * which case the URL gives only the credentials and the database number. ioredis asks the
 * sentinels for the master at every (re)connection, so a failover needs nothing from the app.
 */
export interface RedisTarget {
  url: string;
  sentinels?: { host: string; port: number }[];
  masterName?: string;
  sentinelPassword?: string;
}

/** A Redis connection to `target` with `options` (what each use needs: retries, offline queue). */
export function connectRedis(target: RedisTarget, options: RedisOptions = {}): Redis {
  if (!target.sentinels?.length) return new Redis(target.url, options);
  const u = new URL(target.url);
  const db = Number(u.pathname.replace(/^\//, '') || 0);
  return new Redis({
    sentinels: target.sentinels,
    name: target.masterName ?? 'mymaster',
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {}, enableTLSForSentinelMode: true } : {}),
    db: Number.isInteger(db) ? db : 0,
    // After a failover the old master may still answer as a replica for a moment: a write it
    // refuses (READONLY) makes ioredis reconnect, asking the sentinels again.
    reconnectOnError: (err) => err.message.startsWith('READONLY'),
    ...options,
  });
}

/** Parses `host:port,host:port` (REDIS_SENTINELS); throws naming the first bad entry. */
export function parseSentinels(list: string): { host: string; port: number }[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
      const port = m ? Number(m[2]) : NaN;
      if (!m || port < 1 || port > 65_535) throw new Error(`not host:port: ${entry}`);
      return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
    });
}

/**
 * Whether `err` is Redis being out of reach (a command refused while disconnected, or given up
 * after its reconnection attempts), as opposed to a bad command.
 */
export function isRedisOutage(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    /enableOfflineQueue|max retries per request|Connection is closed|ECONNREFUSED/i.test(
      err.message,
    )
  );
}
