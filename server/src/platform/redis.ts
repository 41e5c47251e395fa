import type { Redis } from 'ioredis';
import { connectRedis, type RedisTarget } from '@infra/redis';
import type { Logger } from '@infra/logger';

/**
 * The api's and worker's Redis connection (throttle counts, the user-event emitter). While Redis
 * is away nothing waits for it and nothing fails hard: a command fails at once when the
 * connection is down (no offline queue) or after one reconnection attempt when it drops mid-way,
 * and every user of it has a way on without it (throttles count in this process meanwhile, user
 * events go to the per-user backlog only). ioredis reconnects by itself, with jitter.
 */
export function commandRedis(target: RedisTarget, name: string, log: Logger): Redis {
  const redis = connectRedis(target, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(2000, 100 * times) * (0.5 + Math.random() / 2),
  });
  const warn = everyMs(10_000);
  redis.on('error', (err: Error) => {
    if (warn()) log.warn({ err: err.message, redis: name }, 'redis connection error');
  });
  return redis;
}

/** True at most once per `ms`: a log line per outage, not one per failed command. */
export function everyMs(ms: number): () => boolean {
  let last = -Infinity;
  return () => {
    const now = Date.now();
    if (now - last < ms) return false;
    last = now;
    return true;
  };
}

/**
 * What @socket.io/redis-emitter needs of a client (it only publishes), with every failed publish
 * caught: the emitter never handles its publishes' promises, so a rejection while Redis is away
 * was an unhandled one that ended the process. A failed publish is sent again, in order, once the
 * connection is ready (the newest `UNSENT_MAX` of them): a user event stored in its user's stream
 * but never published would reach no socket that stayed connected.
 */
export function publishOnly(
  redis: Pick<Redis, 'publish' | 'on'>,
  log: Logger,
): { publish(channel: string, message: string | Buffer): Promise<number> } {
  const warn = everyMs(10_000);
  const unsent: [string, string | Buffer][] = [];
  const publish = (channel: string, message: string | Buffer): Promise<number> =>
    redis.publish(channel, message).catch((err: unknown) => {
      if (warn()) log.warn({ err: (err as Error).message }, 'user event not published (redis)');
      unsent.push([channel, message]);
      if (unsent.length > UNSENT_MAX) unsent.shift();
      return 0;
    });
  redis.on('ready', () => {
    for (const [channel, message] of unsent.splice(0)) void publish(channel, message);
  });
  return { publish };
}

/** Failed publishes held to be sent again (a long outage's oldest are dropped). */
const UNSENT_MAX = 10_000;
