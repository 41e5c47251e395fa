import type { BusMessage, BusMessageType } from '@shared/bus';
import type { Logger } from '../logger';
import { connectRedis, type RedisTarget } from '../redis';
import type { Bus, BusHandler } from './bus';

/**
 * Redis pub/sub bus. Two connections (a subscribed connection cannot publish). ioredis
 * reconnects forever with backoff (a jittered 50 ms … 1 s) and re-subscribes its channels
 * itself, so a Redis restart or a Sentinel failover needs nothing from the subscriber. Messages
 * published while Redis is away are lost (pub/sub semantics): a publish then fails at once rather
 * than queueing, so no burst of stale ticks follows Redis's return and nothing grows meanwhile.
 */
export function createRedisBus(
  target: RedisTarget,
  { log, namespace = 'bus' }: { log?: Logger; namespace?: string } = {},
): Bus {
  const channelOf = (type: BusMessageType) => `${namespace}:${type}`;
  const options = {
    lazyConnect: false,
    retryStrategy: (times: number) => Math.min(1000, 50 * times) * (0.5 + Math.random() / 2),
  };
  const pub = connectRedis(target, {
    ...options,
    connectionName: 'bus-pub',
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  const sub = connectRedis(target, {
    ...options,
    connectionName: 'bus-sub',
    maxRetriesPerRequest: null,
    // No INFO ready check on the subscriber: ioredis can send it after the connection has entered
    // subscriber mode (redis/ioredis#2037), which Redis refuses and which ended an api at start.
    enableReadyCheck: false,
  });
  for (const [name, conn] of [
    ['pub', pub],
    ['sub', sub],
  ] as const) {
    conn.on('error', (err: Error) =>
      log?.warn({ err: err.message, conn: name }, 'redis bus connection error'),
    );
  }

  const handlers = new Map<string, Set<(m: BusMessage) => void>>();
  sub.on('message', (channel: string, payload: string) => {
    const set = handlers.get(channel);
    if (!set) return;
    let message: BusMessage;
    try {
      message = JSON.parse(payload) as BusMessage;
    } catch {
      log?.warn({ channel }, 'dropped an unparsable bus message');
      return;
    }
    for (const h of set) h(message);
  });

  return {
    kind: 'redis',
    async publish(message) {
      await pub.publish(channelOf(message.type), JSON.stringify(message));
    },
    async subscribe<T extends BusMessageType>(type: T, handler: BusHandler<T>) {
      const channel = channelOf(type);
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await sub.subscribe(channel);
      }
      const h = handler as (m: BusMessage) => void;
      set.add(h);
      return async () => {
        set.delete(h);
        if (set.size === 0) {
          handlers.delete(channel);
          await sub.unsubscribe(channel);
        }
      };
    },
    ready: () => pub.status === 'ready' && sub.status === 'ready',
    async close() {
      handlers.clear();
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
