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
import { createAdmission } from './admission';
import type { ConnectionLimits } from './connection-throttle';
import { toMarketSnapshot } from './snapshot';

export interface SocketData {
  userId: string | null;
}

export type GatewayServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;
export type GatewaySocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

export interface GatewayDeps {
  bus: Bus;
  log: Logger;
  productIds: ReadonlySet<string>;
  metrics?: Pick<Metrics, 'sockets' | 'deliveries' | 'broadcasts' | 'connectionsRefused'>;
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
}

export interface Gateway {
  io: GatewayServer;
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
 * The Engine.IO and `ws` internals the broadcast fast path reads (Engine.IO's own pre-encoded
 * broadcast calls the same `sendFrame`). Each is checked on every use: when a library changes
 * shape, sockets simply take Socket.IO's normal path.
 */
interface RawConn {
  readyState?: string;
  writeBuffer?: unknown[];
  transport?: { name?: string; socket?: RawWebSocket };
}
interface RawWebSocket {
  readyState?: number;
  _extensions?: Record<string, unknown>;
  _sender?: { sendFrame?: (list: Buffer[]) => void };
}

/**
 * The `ws` sender of a socket that can take a ready frame now: open, on the websocket transport,
 * uncompressed, and with nothing waiting in Engine.IO's write buffer (a frame written directly
 * must not overtake a packet queued before it). Else null.
 */
function directSender(socket: GatewaySocket): Required<RawWebSocket>['_sender'] | null {
  const conn = socket.conn as unknown as RawConn;
  if (conn.readyState !== 'open' || conn.writeBuffer?.length !== 0) return null;
  const ws = conn.transport?.name === 'websocket' ? conn.transport.socket : undefined;
  if (ws?.readyState !== 1 || !ws._extensions || 'permessage-deflate' in ws._extensions)
    return null;
  return typeof ws._sender?.sendFrame === 'function' ? ws._sender : null;
}

/**
 * The Socket.IO gateway: market data to anyone, user events to authenticated sockets. Ticks and
 * snapshots come from the bus and go out only to this gateway's sockets (never through an adapter,
 * which would repeat them on every gateway): one broadcast per tick per room, encoded and framed
 * once for all its sockets.
 */
export async function createGateway(httpServer: HttpServer, deps: GatewayDeps): Promise<Gateway> {
  const io: GatewayServer = new Server(httpServer, {
    transports: ['websocket'],
    serveClient: false,
    // Explicit (it is Engine.IO's default): broadcast frames go out exactly as built.
    perMessageDeflate: false,
    maxHttpBufferSize: 16 * 1024,
    pingInterval: 20_000,
    pingTimeout: 20_000,
  });
  let snapshot: MarketSnapshot | null = null;
  const lastTicks = new Map<string, Tick>();
  const limiter = new RateLimiterMemory({ points: socketLimits.eventsPerSecond, duration: 1 });
  const nsp = io.of('/');

  /**
   * `io.local.to(room).emit(event, payload)`, cheaper per socket. Socket.IO encodes and frames a
   * broadcast once too, but then runs Engine.IO's per-socket machinery for every socket (a packet
   * object, the write buffer, a flush, events, a drain callback): most of its CPU per delivery.
   * Here the frame (the very bytes Socket.IO would send) is written straight to each socket's
   * WebSocket; a socket that cannot take it now gets the normal emit, which queues in order.
   */
  const broadcast = (
    room: string,
    event: 'tick' | 'market',
    payload: Tick | MarketSnapshot,
    fallback: (socket: GatewaySocket) => void,
  ) => {
    deps.metrics?.broadcasts.inc({ event });
    // Read the adapter at each call: attaching the Redis adapter replaces the namespace's adapter.
    const ids = nsp.adapter.rooms.get(room);
    if (!ids?.size) return;
    // Socket.IO's EVENT packet on the main namespace ("2" + JSON array) inside an Engine.IO
    // message ("4"), as its encoder writes it for a payload without binary parts.
    const frame = wsTextFrame(`42${JSON.stringify([event, payload])}`);
    for (const id of ids) {
      const socket = nsp.sockets.get(id);
      if (!socket) continue;
      const sender = directSender(socket);
      if (sender) sender.sendFrame!([frame]);
      else fallback(socket);
    }
    deps.metrics?.deliveries.inc({ event }, ids.size);
  };

  const offs = await Promise.all([
    deps.bus.subscribe('tick', ({ tick }) => {
      lastTicks.set(tick.id, tick);
      broadcast(`ticks:${tick.id}`, 'tick', tick, (s) => s.emit('tick', tick));
    }),
    deps.bus.subscribe('market', ({ market }) => {
      const snap = toMarketSnapshot(market);
      snapshot = snap;
      broadcast('market', 'market', snap, (s) => s.emit('market', snap));
    }),
    deps.bus.subscribe('product', ({ product }) => {
      io.local.emit('product', product);
    }),
  ]);

  const admission = createAdmission(io, deps);

  // The handlers are shared by every socket (Socket.IO calls them with `this` = the socket), so
  // an idle connection carries no closures of ours; its channels are its rooms.

  /** Every client event spends a token; past the rate the event is answered RATE_LIMITED. */
  const limited = <A extends unknown[]>(handle: (socket: GatewaySocket, ...args: A) => void) =>
    function (this: GatewaySocket, ...args: A) {
      limiter.consume(this.id).then(
        () => handle(this, ...args),
        () => {
          const ack: unknown = args[args.length - 1];
          if (typeof ack === 'function')
            (ack as (a: SubscribeAck) => void)({ error: { code: 'RATE_LIMITED' } });
        },
      );
    };

  const onSubscribe = limited((socket, raw: unknown, ack: unknown) => {
    if (typeof ack !== 'function') return;
    const answer = subscribe(socket, raw);
    (ack as (a: SubscribeAck) => void)(answer);
    if ('ok' in answer) sendSnapshots(socket, raw as string[]);
  });
  const onUnsubscribe = limited((socket, raw: unknown, ack: unknown) => {
    if (typeof ack !== 'function') return;
    const answer = (a: SubscribeAck) => (ack as (a: SubscribeAck) => void)(a);
    const parsed = channelsSchema.safeParse(raw);
    if (!parsed.success) return answer({ error: { code: 'VALIDATION_FAILED' } });
    for (const ch of parsed.data) if (parseChannel(ch)) void socket.leave(ch);
    answer({ ok: true });
  });
  const onTime = limited((_socket, ack: unknown) => {
    if (typeof ack === 'function')
      (ack as (a: { serverTime: number }) => void)({ serverTime: Date.now() });
  });
  function onDisconnect(this: GatewaySocket) {
    deps.metrics?.sockets.dec();
    void limiter.delete(this.id);
  }

  io.on('connection', (socket) => {
    deps.metrics?.sockets.inc();
    socket.on('disconnect', onDisconnect);
    socket.on('subscribe', onSubscribe);
    socket.on('unsubscribe', onUnsubscribe);
    socket.on('time', onTime);
    admission.welcome(socket);
  });

  /** The market-data channels a socket is in (its rooms, less its own id, user and session). */
  const channelsOf = (socket: GatewaySocket) => {
    const out = new Set<string>();
    for (const room of socket.rooms) if (parseChannel(room)) out.add(room);
    return out;
  };

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
    const channels = channelsOf(socket);
    const fresh = [...new Set(parsed.data)].filter((c) => !channels.has(c));
    if (channels.size + fresh.length > socketLimits.maxChannels)
      return { error: { code: 'TOO_MANY_CHANNELS' } };
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
      admission.stop();
      await Promise.all(offs.map((off) => off()));
      await new Promise<void>((resolve) => {
        void io.close(() => resolve());
      });
    },
  };
}
