import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { MarketSnapshot, Tick } from '@shared/market';
import {
  channelsSchema,
  parseChannel,
  socketLimits,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SubscribeAck,
} from '@shared/socket';
import type { Bus } from '../platform/bus';
import type { Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import { toMarketSnapshot } from './snapshot';

export interface SocketData {
  userId: string | null;
  channels: Set<string>;
}

export type GatewayServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;
type GatewaySocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

export interface GatewayDeps {
  bus: Bus;
  log: Logger;
  productIds: ReadonlySet<string>;
  metrics?: Pick<Metrics, 'sockets' | 'deliveries' | 'broadcasts'>;
  /** Resolves a session token to a user id, or null when the token is not valid. */
  authenticate?: (token: string) => Promise<string | null>;
}

export interface Gateway {
  io: GatewayServer;
  close(): Promise<void>;
}

/**
 * The Socket.IO gateway: market data to anyone, user events to authenticated sockets. Ticks and
 * snapshots come from the bus and go out with `io.local` (never through an adapter, which would
 * repeat them on every gateway): one broadcast per tick per room, encoded once for all sockets.
 */
export async function createGateway(httpServer: HttpServer, deps: GatewayDeps): Promise<Gateway> {
  const io: GatewayServer = new Server(httpServer, {
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: 16 * 1024,
    pingInterval: 20_000,
    pingTimeout: 20_000,
  });
  let snapshot: MarketSnapshot | null = null;
  const lastTicks = new Map<string, Tick>();
  const limiter = new RateLimiterMemory({ points: socketLimits.eventsPerSecond, duration: 1 });

  const rooms = io.of('/').adapter.rooms;
  const count = (event: 'tick' | 'market', room: string) => {
    const n = rooms.get(room)?.size ?? 0;
    deps.metrics?.broadcasts.inc({ event });
    if (n) deps.metrics?.deliveries.inc({ event }, n);
  };

  const offs = await Promise.all([
    deps.bus.subscribe('tick', ({ tick }) => {
      lastTicks.set(tick.id, tick);
      const room = `ticks:${tick.id}`;
      io.local.to(room).emit('tick', tick);
      count('tick', room);
    }),
    deps.bus.subscribe('market', ({ market }) => {
      snapshot = toMarketSnapshot(market);
      io.local.to('market').emit('market', snapshot);
      count('market', 'market');
    }),
    deps.bus.subscribe('product', ({ product }) => {
      io.local.emit('product', product);
    }),
  ]);

  io.use((socket, next) => {
    const token: unknown = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    socket.data.channels = new Set();
    socket.data.userId = null;
    if (token === undefined || token === null || token === '') return next();
    if (typeof token !== 'string' || !deps.authenticate) return next(new Error('UNAUTHENTICATED'));
    deps.authenticate(token).then(
      (userId) => {
        if (!userId) return next(new Error('UNAUTHENTICATED'));
        socket.data.userId = userId;
        next();
      },
      () => next(new Error('UNAUTHENTICATED')),
    );
  });

  io.on('connection', (socket) => {
    deps.metrics?.sockets.inc();
    socket.on('disconnect', () => deps.metrics?.sockets.dec());
    if (socket.data.userId) void socket.join(`user:${socket.data.userId}`);
    socket.emit('hello', { serverTime: Date.now(), userId: socket.data.userId });

    // Every client event spends a token; past the rate the event is answered RATE_LIMITED.
    socket.use((packet, next) => {
      limiter.consume(socket.id).then(
        () => next(),
        () => {
          const ack: unknown = packet[packet.length - 1];
          if (typeof ack === 'function')
            (ack as (a: SubscribeAck) => void)({ error: { code: 'RATE_LIMITED' } });
        },
      );
    });

    socket.on('subscribe', (raw, ack) => {
      if (typeof ack !== 'function') return;
      const answer = subscribe(socket, raw);
      ack(answer);
      if ('ok' in answer) sendSnapshots(socket, raw);
    });
    socket.on('unsubscribe', (raw, ack) => {
      if (typeof ack !== 'function') return;
      const parsed = channelsSchema.safeParse(raw);
      if (!parsed.success) return ack({ error: { code: 'VALIDATION_FAILED' } });
      for (const ch of parsed.data) {
        socket.data.channels.delete(ch);
        void socket.leave(ch);
      }
      ack({ ok: true });
    });
    socket.on('time', (ack) => {
      if (typeof ack === 'function') ack({ serverTime: Date.now() });
    });
    socket.on('disconnect', () => void limiter.delete(socket.id));
  });

  const subscribe = (socket: GatewaySocket, raw: unknown): SubscribeAck => {
    const parsed = channelsSchema.safeParse(raw);
    if (!parsed.success)
      return { error: { code: 'VALIDATION_FAILED', message: 'channels must be a list of names' } };
    for (const name of parsed.data) {
      const ch = parseChannel(name);
      if (!ch) return { error: { code: 'VALIDATION_FAILED', message: `unknown channel ${name}` } };
      if (ch.kind === 'ticks' && !deps.productIds.has(ch.productId))
        return { error: { code: 'NOT_FOUND', message: `unknown product ${ch.productId}` } };
    }
    const fresh = parsed.data.filter((c) => !socket.data.channels.has(c));
    if (socket.data.channels.size + fresh.length > socketLimits.maxChannels)
      return { error: { code: 'TOO_MANY_CHANNELS' } };
    for (const c of fresh) socket.data.channels.add(c);
    void socket.join(fresh);
    return { ok: true };
  };

  const sendSnapshots = (socket: GatewaySocket, channels: string[]) => {
    for (const name of channels) {
      const ch = parseChannel(name);
      if (ch?.kind === 'market' && snapshot) socket.emit('market', snapshot);
      if (ch?.kind === 'ticks') {
        const t = lastTicks.get(ch.productId);
        if (t) socket.emit('tick', t);
      }
    }
  };

  return {
    io,
    async close() {
      await Promise.all(offs.map((off) => off()));
      await new Promise<void>((resolve) => {
        void io.close(() => resolve());
      });
    },
  };
}
