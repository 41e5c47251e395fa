import type { Server as HttpServer } from 'node:http';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Adapter } from 'socket.io-adapter';
import type { MarketSnapshot, Tick } from '@shared/market';
import {
  channelsSchema,
  parseChannel,
  socketLimits,
  type ServerToClientEvents,
  type SubscribeAck,
} from '@shared/socket';
import type { Bus } from '@infra/bus';
import type { Logger } from '@infra/logger';
import type { Metrics } from '../platform/metrics';
import { createAdmission, REFUSED_GRACE_MS } from './admission';
import { createBacklog, defaultBacklogLimits, type BacklogLimits } from './backlog';
import type { ConnectionLimits } from './connection-throttle';
import { toMarketSnapshot } from './snapshot';
import { rateMeter } from '@server/platform/process-reports';
import { encodePacket, SocketServer, type Ack, type Conn, type SioPacket } from './socket-server';

export interface GatewayDeps {
  bus: Bus;
  log: Logger;
  productIds: ReadonlySet<string>;
  metrics?: Pick<
    Metrics,
    'sockets' | 'deliveries' | 'broadcasts' | 'connectionsRefused' | 'slowConsumers' | 'conflated'
  >;
  /**
   * Resolves a session token to a user id, or null when its session is over; throws when it
   * cannot tell now. Without it, a token is ignored and the socket is anonymous.
   */
  authenticate?: (token: string) => Promise<string | null>;
  /**
   * Connections per client address (SOCKET_CONNECT_RATE, SOCKET_MAX_PER_ADDRESS). Required, so
   * every gateway, the tests' and load tools' included, says which limits it runs with.
   */
  connectionLimits: ConnectionLimits;
  /** Whose X-Forwarded-For names the client (TRUST_PROXY, Express syntax); default loopback. */
  trustProxy?: string;
  /** Per-socket send backlog limits (SOCKET_CONFLATE_BYTES, SOCKET_DISCONNECT_BYTES). */
  backlog?: BacklogLimits;
  /** Engine.IO heartbeat; default 20 s and 20 s. */
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
}

type Emit = <E extends keyof ServerToClientEvents>(
  event: E,
  ...args: Parameters<ServerToClientEvents[E]>
) => void;

/** `io.to(rooms)`: a broadcast to rooms through the adapter (so through Redis when attached). */
export interface RoomBroadcast {
  to(room: string | string[]): RoomBroadcast;
  emit: Emit;
  disconnectSockets(close?: boolean): void;
}

/**
 * The part of Socket.IO's `Server` the rest of the app uses: rooms for user events, the adapter,
 * and the counts the tests read.
 */
export interface GatewayServer {
  to(room: string | string[]): RoomBroadcast;
  in(room: string | string[]): RoomBroadcast;
  /** This gateway's sockets only, never through the adapter. */
  local: { emit: Emit };
  of(name: '/'): { adapter: Adapter; sockets: ReadonlyMap<string, Conn> };
  engine: { readonly clientsCount: number };
  /** Replaces the in-memory adapter, e.g. with `createAdapter(pub, sub)` of @socket.io/redis-adapter. */
  adapter(factory: (nsp: never) => Adapter): void;
}

export interface Gateway {
  io: GatewayServer;
  /** What this gateway holds unsent for its sockets now, bytes (the sum of their backlogs). */
  backlogBytes(): number;
  /**
   * Its connected sockets, and the ticks per second it heard since the last call (the operators'
   * dashboard reads it every 2 s through the process report).
   */
  figures: () => { sockets: number; ticksPerSecond: number };
  close(): Promise<void>;
}

/**
 * A server-to-client WebSocket text frame (RFC 6455 §5.2: FIN, opcode 1, unmasked), header and
 * payload in one Buffer, so writing it to a socket is one write.
 */
export function wsTextFrame(text: string): Buffer {
  const n = Buffer.byteLength(text);
  const head = n < 126 ? 2 : n < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81;
  if (n < 126) frame[1] = n;
  else if (n < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(n / 2 ** 32), 2);
    frame.writeUInt32BE(n >>> 0, 6);
  }
  frame.write(text, head);
  return frame;
}

/**
 * The gateway: market data to anyone, user events to authenticated sockets. Ticks and snapshots
 * come from the bus and go out only to this gateway's sockets (never through an adapter, which
 * would repeat them on every gateway): one broadcast per tick per room, encoded and framed once
 * for all its sockets, each socket's send backlog bounded (backlog.ts).
 */
export async function createGateway(httpServer: HttpServer, deps: GatewayDeps): Promise<Gateway> {
  let snapshot: MarketSnapshot | null = null;
  const lastTicks = new Map<string, Tick>();
  const limiter = new RateLimiterMemory({ points: socketLimits.eventsPerSecond, duration: 1 });
  const admission = createAdmission(deps);
  const backlog = createBacklog(deps.backlog ?? defaultBacklogLimits, deps.log, deps.metrics);
  const ticksHeard = rateMeter();

  /** Every client event spends a token; past the rate the event is answered RATE_LIMITED. */
  const limited =
    (handle: (conn: Conn, args: unknown[], ack: Ack) => void) =>
    (conn: Conn, args: unknown[], ack: Ack | null) => {
      if (!ack) return; // every event of ours is a request: without an ack, nothing to answer
      limiter.consume(conn.id).then(
        () => handle(conn, args, ack),
        () => ack({ error: { code: 'RATE_LIMITED' } }),
      );
    };

  const server = new SocketServer(
    httpServer,
    {
      upgrade: admission.upgrade,
      admit: admission.admit,
      connected(conn) {
        deps.metrics?.sockets.inc();
        admission.welcome(conn);
      },
      disconnected(conn) {
        deps.metrics?.sockets.dec();
        backlog.forget(conn);
        void limiter.delete(conn.id);
      },
      afterWrite: (conn) => backlog.check(conn),
      events: {
        subscribe: limited((conn, [raw], ack) => {
          const answer = subscribe(conn, raw);
          ack(answer);
          if ('ok' in answer) sendSnapshots(conn, raw as string[]);
        }),
        unsubscribe: limited((conn, [raw], ack) => {
          const parsed = channelsSchema.safeParse(raw);
          if (!parsed.success) return ack({ error: { code: 'VALIDATION_FAILED' } });
          for (const ch of parsed.data) if (parseChannel(ch)) conn.leave(ch);
          ack({ ok: true } satisfies SubscribeAck);
        }),
        time: limited((_conn, _args, ack) => ack({ serverTime: Date.now() })),
      },
    },
    {
      pingIntervalMs: deps.pingIntervalMs ?? 20_000,
      pingTimeoutMs: deps.pingTimeoutMs ?? 20_000,
      maxPayload: 16 * 1024,
      connectTimeoutMs: 45_000,
      refusedGraceMs: REFUSED_GRACE_MS,
    },
  );

  /**
   * One market message to every socket of `room`: encoded and framed once (the very bytes a
   * Socket.IO emit would send), then handed to each socket's backlog policy.
   */
  const broadcast = (room: string, event: 'tick' | 'market', payload: Tick | MarketSnapshot) => {
    deps.metrics?.broadcasts.inc({ event });
    // Read the adapter at each call: attaching the Redis adapter replaces it.
    const ids = server.adapter.rooms.get(room);
    if (!ids?.size) return;
    const frame = wsTextFrame(`4${encodePacket({ type: 2, nsp: '/', data: [event, payload] })}`);
    const held = { channel: room, event, payload, frame };
    for (const id of ids) {
      const conn = server.sockets.get(id);
      if (conn) backlog.deliver(conn, held);
    }
    deps.metrics?.deliveries.inc({ event }, ids.size);
  };

  const offs = await Promise.all([
    deps.bus.subscribe('tick', ({ tick }) => {
      ticksHeard.mark();
      lastTicks.set(tick.id, tick);
      broadcast(`ticks:${tick.id}`, 'tick', tick);
    }),
    deps.bus.subscribe('market', ({ market }) => {
      snapshot = toMarketSnapshot(market);
      broadcast('market', 'market', snapshot);
    }),
    deps.bus.subscribe('product', ({ product }) => {
      for (const conn of server.sockets.values()) conn.sendEvent('product', product);
    }),
  ]);

  /** The market-data channels a socket is in (its rooms, less its user and session rooms). */
  const channelsOf = (conn: Conn) => {
    const out = new Set<string>();
    for (const room of conn.rooms) if (parseChannel(room)) out.add(room);
    return out;
  };

  const subscribe = (conn: Conn, raw: unknown): SubscribeAck => {
    const parsed = channelsSchema.safeParse(raw);
    if (!parsed.success)
      return { error: { code: 'VALIDATION_FAILED', message: 'channels must be a list of names' } };
    for (const name of parsed.data) {
      const ch = parseChannel(name);
      if (!ch) return { error: { code: 'VALIDATION_FAILED', message: `unknown channel ${name}` } };
      if (ch.kind === 'ticks' && !deps.productIds.has(ch.productId))
        return { error: { code: 'NOT_FOUND', message: `unknown product ${ch.productId}` } };
    }
    const channels = channelsOf(conn);
    const fresh = [...new Set(parsed.data)].filter((c) => !channels.has(c));
    if (channels.size + fresh.length > socketLimits.maxChannels)
      return { error: { code: 'TOO_MANY_CHANNELS' } };
    if (fresh.length) conn.join(fresh);
    return { ok: true };
  };

  const sendSnapshots = (conn: Conn, channels: string[]) => {
    for (const name of channels) {
      const ch = parseChannel(name);
      if (ch?.kind === 'market' && snapshot) conn.sendEvent('market', snapshot);
      if (ch?.kind === 'ticks') {
        const t = lastTicks.get(ch.productId);
        if (t) conn.sendEvent('tick', t);
      }
    }
  };

  const rooms = (
    to: ReadonlySet<string>,
  ): RoomBroadcast & { emit: (event: string, ...args: unknown[]) => void } => ({
    to: (room) => rooms(new Set([...to, ...(typeof room === 'string' ? [room] : room)])),
    emit: (event: string, ...args: unknown[]) => {
      const packet: SioPacket = { type: 2, nsp: '/', data: [event, ...args] };
      server.adapter.broadcast(packet, { rooms: new Set(to), except: new Set() });
    },
    disconnectSockets: (close = false) =>
      server.adapter.disconnectSockets({ rooms: new Set(to), except: new Set() }, close),
  });
  const io: GatewayServer = {
    to: (room) => rooms(new Set(typeof room === 'string' ? [room] : room)),
    in: (room) => rooms(new Set(typeof room === 'string' ? [room] : room)),
    local: {
      emit: (event, ...args) => {
        for (const conn of server.sockets.values()) conn.sendEvent(event, ...args);
      },
    },
    of: () => ({ adapter: server.adapter, sockets: server.sockets }),
    engine: {
      get clientsCount() {
        return server.clientsCount;
      },
    },
    adapter(factory) {
      const adapter = factory(server.nsp as never);
      void adapter.init();
      server.setAdapter(adapter);
    },
  };

  return {
    io,
    backlogBytes: () => backlog.bytes(server.sockets.values()),
    figures: () => ({ sockets: server.clientsCount, ticksPerSecond: ticksHeard.perSecond() }),
    async close() {
      admission.stop();
      backlog.stop();
      await Promise.all(offs.map((off) => off()));
      await server.close();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeIdleConnections();
      });
    },
  };
}
