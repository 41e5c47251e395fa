import type { Server as HttpServer } from 'node:http';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Adapter } from 'socket.io-adapter';
import type { MarketSnapshot, Tick } from '@shared/market';
import {
  channelsSchema,
  parseChannel,
  socketLimits,
  subscribeOptionsSchema,
  type AckError,
  type ClientEventAnswer,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SubscribeAck,
} from '@shared/socket';
import type { Bus } from '@infra/bus';
import type { Logger } from '@infra/logger';
import type { Metrics } from '../platform/metrics';
import type { ReplaySource } from '../platform/user-events';
import { createAdmission, REFUSED_GRACE_MS } from './admission';
import { createBacklog, defaultBacklogLimits, type BacklogLimits } from './backlog';
import type { ConnectionLimits } from './connection-throttle';
import { toMarketSnapshot } from './snapshot';
import type { TicketSigner } from './socket-ticket';
import type { RevokedSessions } from '../platform/revoked-sessions';
import { createTickRing } from './tick-ring';
import { rateMeter } from '@server/platform/process-reports';
import { encodePacket, SocketServer, type Ack, type Conn, type SioPacket } from './socket-server';

export interface GatewayDeps {
  bus: Bus;
  log: Logger;
  productIds: ReadonlySet<string>;
  metrics?: Pick<
    Metrics,
    | 'sockets'
    | 'deliveries'
    | 'broadcasts'
    | 'connectionsRefused'
    | 'admissions'
    | 'slowConsumers'
    | 'conflated'
  >;
  /**
   * Resolves a session token to a user id, or null when its session is over; throws when it
   * cannot tell now. Without it, a token is ignored and the socket is anonymous.
   */
  authenticate?: (token: string) => Promise<string | null>;
  /**
   * Socket tickets (SOCKET_TICKET_SECRET): signed-in sockets get one in `hello`, renewed before
   * it expires, and a connection bringing a valid one for its token is admitted by it, checked
   * against the revoked sessions instead of by `authenticate`. Without it, every token is checked.
   */
  tickets?: { signer: TicketSigner; revoked: Pick<RevokedSessions, 'isRevoked'> };
  /**
   * On close: how long the sockets are spread over, disconnected in batches, each told to
   * reconnect (GATEWAY_DRAIN_MS); default 0, all at once.
   */
  drainMs?: number;
  /**
   * The user events a reconnecting socket missed (after its handshake's `since`). Without it
   * every signed-in hello says `replay: 'gap'`.
   */
  replay?: ReplaySource;
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
  /** True from the start of `close`: readiness fails, so a balancer sends no one new. */
  draining(): boolean;
  /**
   * The adapter's subscription to user events was lost, then is back: the signed-in sockets
   * are caught up from their users' buffers with what they may have missed (admission.ts).
   */
  userEventsLost(): void;
  userEventsBack(): Promise<{ sockets: number; gaps: number }>;
  /**
   * Refuses new connections, closes its sockets' connections spread over `drainMs` (each client
   * reconnects, to another gateway behind the balancer), then closes.
   */
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

type Backlog = ReturnType<typeof createBacklog>;

/** What the gateway keeps of the market for sockets that subscribe: last snapshot, recent ticks. */
interface MarketCache {
  snapshot: MarketSnapshot | null;
  ticks: ReturnType<typeof createTickRing>;
}

/** The market-data channels a socket is in (its rooms, less its user and session rooms). */
function channelsOf(conn: Conn) {
  const out = new Set<string>();
  for (const room of conn.rooms) if (parseChannel(room)) out.add(room);
  return out;
}

/** Joins the channels named by `raw`; the answer, and on success the channels as parsed. */
function subscribe(
  productIds: ReadonlySet<string>,
  conn: Conn,
  raw: unknown,
): { answer: SubscribeAck; channels?: string[] } {
  const refuse = (error: AckError['error']) => ({ answer: { error } });
  const parsed = channelsSchema.safeParse(raw);
  if (!parsed.success)
    return refuse({ code: 'VALIDATION_FAILED', message: 'channels must be a list of names' });
  for (const name of parsed.data) {
    const ch = parseChannel(name);
    if (!ch) return refuse({ code: 'VALIDATION_FAILED', message: `unknown channel ${name}` });
    if (ch.kind === 'ticks' && !productIds.has(ch.productId))
      return refuse({ code: 'NOT_FOUND', message: `unknown product ${ch.productId}` });
  }
  const channels = channelsOf(conn);
  const fresh = [...new Set(parsed.data)].filter((c) => !channels.has(c));
  if (channels.size + fresh.length > socketLimits.maxChannels)
    return refuse({ code: 'TOO_MANY_CHANNELS' });
  if (fresh.length) conn.join(fresh);
  return { answer: { ok: true }, channels: parsed.data };
}

/**
 * What a subscription starts with: the market snapshot; per product the latest tick, or, when
 * the client said which tick it holds, every one after it the ring has (after a `ticksGap` for
 * those it no longer has). Sent right after the join, so no broadcast falls in between.
 */
function sendSnapshots(
  market: MarketCache,
  backlog: Backlog,
  conn: Conn,
  channels: string[],
  after: Record<string, number>,
) {
  for (const name of channels) {
    const ch = parseChannel(name);
    if (ch?.kind === 'market' && market.snapshot) conn.sendEvent('market', market.snapshot);
    if (ch?.kind !== 'ticks') continue;
    const held = after[ch.productId];
    if (held === undefined) {
      const t = market.ticks.latest(ch.productId);
      if (t) conn.sendEvent('tick', t);
      continue;
    }
    const { ticks, gap } = market.ticks.after(ch.productId, held);
    if (gap) conn.sendEvent('ticksGap', gap);
    for (const t of ticks) conn.sendEvent('tick', t);
    backlog.check(conn);
  }
}

/** The client events' handlers: subscribe, unsubscribe and time, each rate limited per socket. */
function clientEventHandlers(
  limiter: RateLimiterMemory,
  productIds: ReadonlySet<string>,
  market: MarketCache,
  backlog: Backlog,
) {
  /**
   * A client event's handler (ClientToServerEvents): its arguments as they came off the wire,
   * parsed by the handler, and its answer typed by the contract. Every event spends a token;
   * past the rate it is answered RATE_LIMITED, which every answer type admits (checked below).
   */
  const limited =
    <E extends keyof ClientToServerEvents>(
      handle: (conn: Conn, args: unknown[], answer: (a: ClientEventAnswer<E>) => void) => void,
    ) =>
    (conn: Conn, args: unknown[], ack: Ack | null) => {
      if (!ack) return; // every event of ours is a request: without an ack, nothing to answer
      limiter.consume(conn.id).then(
        () => handle(conn, args, ack),
        () => ack({ error: { code: 'RATE_LIMITED' } } satisfies AckError),
      );
    };
  const everyAnswerAdmitsErrors: {
    [E in keyof ClientToServerEvents]: AckError extends ClientEventAnswer<E> ? true : never;
  } = { subscribe: true, unsubscribe: true, time: true };
  void everyAnswerAdmitsErrors;
  const handlers: { [E in keyof ClientToServerEvents]: ReturnType<typeof limited<E>> } = {
    subscribe: limited<'subscribe'>((conn, [raw, rawOptions], answer) => {
      const options = subscribeOptionsSchema.safeParse(rawOptions);
      if (!options.success) return answer({ error: { code: 'VALIDATION_FAILED' } });
      const subscribed = subscribe(productIds, conn, raw);
      answer(subscribed.answer);
      if (subscribed.channels)
        sendSnapshots(market, backlog, conn, subscribed.channels, options.data?.after ?? {});
    }),
    unsubscribe: limited<'unsubscribe'>((conn, [raw], answer) => {
      const parsed = channelsSchema.safeParse(raw);
      if (!parsed.success) return answer({ error: { code: 'VALIDATION_FAILED' } });
      for (const ch of parsed.data) if (parseChannel(ch)) conn.leave(ch);
      answer({ ok: true });
    }),
    time: limited<'time'>((_conn, _args, answer) => answer({ serverTime: Date.now() })),
  };
  return handlers;
}

/**
 * One market message to every socket of `room`: encoded and framed once (the very bytes a
 * Socket.IO emit would send), then handed to each socket's backlog policy.
 */
function marketBroadcaster(
  server: SocketServer,
  backlog: Backlog,
  metrics: GatewayDeps['metrics'],
) {
  return (room: string, event: 'tick' | 'market', payload: Tick | MarketSnapshot) => {
    metrics?.broadcasts.inc({ event });
    // Read the adapter at each call: attaching the Redis adapter replaces it.
    const ids = server.adapter.rooms.get(room);
    if (!ids?.size) return;
    const frame = wsTextFrame(`4${encodePacket({ type: 2, nsp: '/', data: [event, payload] })}`);
    const held = { channel: room, event, payload, frame };
    for (const id of ids) {
      const conn = server.sockets.get(id);
      if (conn) backlog.deliver(conn, held);
    }
    metrics?.deliveries.inc({ event }, ids.size);
  };
}

/** A broadcast to `to` through the server's adapter (so through Redis when attached). */
function roomBroadcast(
  server: SocketServer,
  to: ReadonlySet<string>,
): RoomBroadcast & { emit: (event: string, ...args: unknown[]) => void } {
  return {
    to: (room) =>
      roomBroadcast(server, new Set([...to, ...(typeof room === 'string' ? [room] : room)])),
    emit: (event: string, ...args: unknown[]) => {
      const packet: SioPacket = { type: 2, nsp: '/', data: [event, ...args] };
      server.adapter.broadcast(packet, { rooms: new Set(to), except: new Set() });
    },
    disconnectSockets: (close = false) =>
      server.adapter.disconnectSockets({ rooms: new Set(to), except: new Set() }, close),
  };
}

/** The part of Socket.IO's `Server` the rest of the app uses, over the gateway's own server. */
function gatewayServer(server: SocketServer): GatewayServer {
  return {
    to: (room) => roomBroadcast(server, new Set(typeof room === 'string' ? [room] : room)),
    in: (room) => roomBroadcast(server, new Set(typeof room === 'string' ? [room] : room)),
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
}

/**
 * The gateway: market data to anyone, user events to authenticated sockets. Ticks and snapshots
 * come from the bus and go out only to this gateway's sockets (never through an adapter, which
 * would repeat them on every gateway): one broadcast per tick per room, encoded and framed once
 * for all its sockets, each socket's send backlog bounded (backlog.ts).
 */
export async function createGateway(httpServer: HttpServer, deps: GatewayDeps): Promise<Gateway> {
  const market: MarketCache = { snapshot: null, ticks: createTickRing() };
  const limiter = new RateLimiterMemory({ points: socketLimits.eventsPerSecond, duration: 1 });
  const admission = createAdmission(deps);
  const backlog = createBacklog(deps.backlog ?? defaultBacklogLimits, deps.log, deps.metrics);
  const ticksHeard = rateMeter();
  let draining = false;

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
      events: clientEventHandlers(limiter, deps.productIds, market, backlog),
    },
    {
      pingIntervalMs: deps.pingIntervalMs ?? 20_000,
      pingTimeoutMs: deps.pingTimeoutMs ?? 20_000,
      maxPayload: 16 * 1024,
      connectTimeoutMs: 45_000,
      refusedGraceMs: REFUSED_GRACE_MS,
    },
  );
  const broadcast = marketBroadcaster(server, backlog, deps.metrics);

  // One pass over every socket renews the tickets past half their life (admission.ts).
  const renewer = deps.tickets
    ? setInterval(
        () => admission.renewTickets(server.sockets.values()),
        renewEveryMs(deps.tickets.signer.ttlMs),
      ).unref()
    : null;

  const offs = await Promise.all([
    deps.bus.subscribe('tick', ({ tick }) => {
      ticksHeard.mark();
      market.ticks.add(tick);
      broadcast(`ticks:${tick.id}`, 'tick', tick);
    }),
    deps.bus.subscribe('market', ({ market: state }) => {
      const snapshot = toMarketSnapshot(state);
      market.snapshot = snapshot;
      broadcast('market', 'market', snapshot);
    }),
    deps.bus.subscribe('product', ({ product }) => {
      for (const conn of server.sockets.values()) conn.sendEvent('product', product);
    }),
  ]);

  return {
    io: gatewayServer(server),
    backlogBytes: () => backlog.bytes(server.sockets.values()),
    figures: () => ({ sockets: server.clientsCount, ticksPerSecond: ticksHeard.perSecond() }),
    draining: () => draining,
    userEventsLost: () => admission.subscriptionLost(server.sockets.values()),
    userEventsBack: () => admission.subscriptionBack(server.sockets.values()),
    async close() {
      draining = true;
      server.stopAccepting();
      // A closed connection, not a Socket.IO disconnect: every socket.io client reconnects
      // after a lost connection by itself (with its randomized backoff), and only the app's
      // own client would after a server disconnect.
      await spreadOver([...server.sockets.values()], deps.drainMs ?? 0, (conn) => conn.close());
      if (renewer) clearInterval(renewer);
      admission.stop();
      backlog.stop();
      await Promise.all(offs.map((off) => off()));
      // Stop accepting first: a client reconnecting while the sockets close is refused, and the
      // balancer tries the next gateway, instead of reaching a server that no longer upgrades.
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      await server.close();
      await closed;
    },
  };
}

/** A ticket is renewed at half its life; its socket's pass comes at least every tenth of it. */
function renewEveryMs(ttlMs: number): number {
  return Math.min(60_000, Math.max(1000, Math.floor(ttlMs / 10)));
}

/** How often a drain disconnects its next batch. */
const DRAIN_STEP_MS = 100;

/**
 * Runs `act` on every item, in equal batches spread evenly over `ms` (the first batch at once):
 * a drain's sockets come back to the other gateways as a stream, not as one storm.
 */
async function spreadOver<T>(items: T[], ms: number, act: (item: T) => void): Promise<void> {
  const steps = Math.max(1, Math.min(items.length, Math.floor(ms / DRAIN_STEP_MS)));
  const size = Math.ceil(items.length / steps);
  for (let i = 0; i < steps; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, ms / steps));
    for (const item of items.slice(i * size, (i + 1) * size)) act(item);
  }
}
