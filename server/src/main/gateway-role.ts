import type http from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Config } from '@server/config';
import { connectRedis, type RedisTarget } from '@infra/redis';
import { commandRedis } from '@server/platform/redis';
import { createGateway, type Gateway } from '@server/gateway/gateway';
import { catchUpAfterLoss } from '@server/gateway/catch-up';
import { redisReplay, socketIoKey, type ReplaySource } from '@server/platform/user-events';
import type { RevokedSessions } from '@server/platform/revoked-sessions';
import { createTicketSigner } from '@server/gateway/socket-ticket';
import type { Metrics } from '@server/platform/metrics';
import type { Bus } from '@infra/bus';
import type { Logger } from '@infra/logger';
import { defaultCatalogue } from '@sim/index';

/**
 * The gateway role on an HTTP server: the Socket.IO gateway with its tickets, limits and replay,
 * and with Redis the adapter that brings the api's user events to it.
 */
export async function attachGateway(
  server: http.Server,
  bus: Bus,
  log: Logger,
  opts: {
    authenticate?: (token: string) => Promise<string | null>;
    redis?: RedisTarget;
    namespace?: string;
    metrics?: Metrics;
    /**
     * Where ended sessions are recorded, for socket tickets: with SOCKET_TICKET_SECRET and this,
     * the gateway issues and admits tickets. Absent, it checks every token with `authenticate`.
     */
    revokedSessions?: RevokedSessions;
    /** How long closing spreads the sockets' disconnects over (GATEWAY_DRAIN_MS); default 0. */
    drainMs?: number;
    /**
     * Where missed user events are replayed from: the embedded api's memory; else, with Redis,
     * the users' streams there.
     */
    replay?: ReplaySource;
    /** Socket limits per address and per socket, TRUST_PROXY, and the socket tickets' key. */
    config: Pick<
      Config,
      | 'SOCKET_TICKET_SECRET'
      | 'SOCKET_TICKET_TTL_MS'
      | 'SOCKET_CONNECT_RATE'
      | 'SOCKET_MAX_PER_ADDRESS'
      | 'TRUST_PROXY'
      | 'SOCKET_CONFLATE_BYTES'
      | 'SOCKET_DISCONNECT_BYTES'
    >;
  },
): Promise<Gateway> {
  const reader = opts.replay || !opts.redis ? null : commandRedis(opts.redis, 'gateway', log);
  const gateway = await createGateway(server, {
    bus,
    replay: opts.replay ?? (reader ? redisReplay(reader, opts.namespace ?? 'trade') : undefined),
    log: log.child({ part: 'gateway' }),
    productIds: new Set(defaultCatalogue.map((p) => p.id)),
    authenticate: opts.authenticate,
    tickets:
      opts.config.SOCKET_TICKET_SECRET && opts.revokedSessions
        ? {
            signer: createTicketSigner(
              opts.config.SOCKET_TICKET_SECRET,
              opts.config.SOCKET_TICKET_TTL_MS,
            ),
            revoked: opts.revokedSessions,
          }
        : undefined,
    drainMs: opts.drainMs,
    metrics: opts.metrics,
    connectionLimits: {
      perMinute: opts.config.SOCKET_CONNECT_RATE,
      maxPerAddress: opts.config.SOCKET_MAX_PER_ADDRESS,
    },
    trustProxy: opts.config.TRUST_PROXY,
    backlog: {
      conflateBytes: opts.config.SOCKET_CONFLATE_BYTES,
      disconnectBytes: opts.config.SOCKET_DISCONNECT_BYTES,
    },
  });
  if (opts.redis) {
    // The adapter carries only user events (from the api's emitter); ticks never go through it.
    const pub = connectRedis(opts.redis, { maxRetriesPerRequest: null });
    // No INFO ready check on the subscriber (redis/ioredis#2037; infra/src/bus/redis.ts).
    const sub = pub.duplicate({ enableReadyCheck: false });
    for (const c of [pub, sub])
      c.on('error', (err: Error) => log.warn({ err: err.message }, 'redis (adapter) error'));
    opts.metrics?.watchRedis('adapter', () => pub.status === 'ready' && sub.status === 'ready');
    gateway.io.adapter(createAdapter(pub, sub, { key: socketIoKey(opts.namespace ?? 'trade') }));
    catchUpAfterLoss(sub, gateway, log);
  }
  if (!reader) return gateway;
  return {
    ...gateway,
    close: async () => {
      await gateway.close();
      reader.disconnect();
    },
  };
}
