import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { WebSocket } from 'ws';
import { Adapter } from 'socket.io-adapter';
import type { ConnectErrorCode } from '@shared/socket';
import { compareEventIds, eventIdOfPacket } from '@shared/user-events';
import { EngineConn, EngineServer, sendFrame } from './engine';

/**
 * The gateway's Socket.IO server: the Socket.IO v5 protocol over Engine.IO v4 (engine.ts),
 * websocket transport only, default namespace only, text packets only (docs/DECISIONS.md, "The
 * gateway speaks Socket.IO itself"). socket.io-client and the app's client connect to it
 * unchanged; the official protocol suites run against it (tests/protocol).
 *
 * Why not the `socket.io` package: per connection it keeps an Engine.IO socket, a transport, a
 * Socket.IO client and socket, a parser, the upgrade request and its headers, a ping timer and
 * eighteen bound functions: about 7 KB of heap over the 2.4 KB that `ws` and the TCP socket need.
 * Here a connection is the `ws` WebSocket itself (the `Conn` subclass) with a few more fields,
 * and every handler is shared. Rooms and user events still go through a Socket.IO adapter
 * (socket.io-adapter, or the Redis adapter the api's emitter publishes to), so the api side is
 * unchanged.
 */

/** A Socket.IO packet (socket.io-parser's shape, which the adapters pass around). */
export interface SioPacket {
  type: number;
  nsp: string;
  id?: number;
  data?: unknown;
}

/** What a Socket.IO adapter passes to `writeToEngine` with pre-encoded packets. */
interface PacketOpts {
  wsPreEncodedFrame?: Buffer[];
}

const enum State {
  /** Engine.IO open; no namespace CONNECT yet. */
  Open = 0,
  /** CONNECT received, admission under way. */
  Admitting = 1,
  Connected = 2,
  Closed = 3,
}

/** Socket.IO packet types (protocol v5). */
const CONNECT = 0;
const DISCONNECT = 1;
const EVENT = 2;
const ACK = 3;
const CONNECT_ERROR = 4;

/** Encodes a packet without binary parts, as socket.io-parser does. */
export function encodePacket(p: SioPacket): string {
  let s = String(p.type);
  if (p.nsp !== '/') s += `${p.nsp},`;
  if (p.id !== undefined) s += String(p.id);
  if (p.data !== undefined) s += JSON.stringify(p.data);
  return s;
}

export type Ack = (...args: unknown[]) => void;
export type EventHandler = (conn: Conn, args: unknown[], ack: Ack | null) => void;

/**
 * One connection: the `ws` WebSocket (created by the WebSocketServer through its `WebSocket`
 * option) carrying the little Socket.IO needs. The adapters see it as a Socket.IO socket: `id`,
 * `client.writeToEngine`, `join`, `leave`, `disconnect`.
 */
export class Conn extends EngineConn {
  userId: string | null = null;
  state: State = State.Open;
  /** performance.now() at open, or at leaving the namespace: the connect timeout's start. */
  waitingSince = 0;
  server: SocketServer | null = null;
  /** Why the connection was refused at the upgrade (answered to its CONNECT), else null. */
  refused: ConnectErrorCode | null = null;
  /** Frees this connection's place in its address's count (connection-throttle). */
  release: (() => void) | null = null;
  /** Market frames held back while the socket's backlog is high (backlog.ts); null when none. */
  held: Map<string, HeldFrame> | null = null;
  /**
   * The newest user-event id this socket was sent (replayed or live), or at its hello the newest
   * its user's buffer held; null before. What a catch-up after a subscription gap starts from.
   */
  lastEventId: string | null = null;

  get connected(): boolean {
    return this.state === State.Connected;
  }

  /** For the adapters: a Socket.IO socket's `client` is where packets are written. */
  get client(): this {
    return this;
  }

  /** The socket's rooms, as the adapter records them. */
  get rooms(): ReadonlySet<string> {
    return this.server?.adapter.sids.get(this.id) ?? new Set();
  }

  /** Packets from an adapter (user events, from the api): written now, never dropped. */
  writeToEngine(encoded: unknown[], opts: PacketOpts): void {
    if (this.state === State.Closed || this.readyState !== WebSocket.OPEN) return;
    if (encoded.length === 1 && opts.wsPreEncodedFrame) sendFrame(this, opts.wsPreEncodedFrame);
    else for (const p of encoded) if (typeof p === 'string') this.send(`4${p}`);
    for (const p of encoded) if (typeof p === 'string') this.sawEventId(eventIdOfPacket(p));
    this.server?.hooks.afterWrite(this);
  }

  /** Remembers a user-event id sent to this socket, when it is newer than the last one. */
  sawEventId(id: string | null | undefined): void {
    if (id && (this.lastEventId === null || compareEventIds(id, this.lastEventId) > 0))
      this.lastEventId = id;
  }

  /** Sends one event (encoded here); true when written. */
  sendEvent(event: string, ...args: unknown[]): boolean {
    if (this.readyState !== WebSocket.OPEN) return false;
    this.send(`4${encodePacket({ type: EVENT, nsp: '/', data: [event, ...args] })}`);
    return true;
  }

  join(rooms: string | string[]): void {
    if (this.state !== State.Connected) return;
    void this.server?.adapter.addAll(this.id, new Set(typeof rooms === 'string' ? [rooms] : rooms));
  }

  leave(room: string): void {
    void this.server?.adapter.del(this.id, room);
  }

  /**
   * Socket.IO's server-side disconnect: a DISCONNECT packet, then the connection closes. With one
   * namespace, leaving it ends the connection whatever `close` says (Socket.IO closes a client
   * left with no namespace too).
   */
  disconnect(_close = false): void {
    if (this.state === State.Closed) return;
    if (this.readyState === WebSocket.OPEN) this.send(`4${DISCONNECT}`);
    this.server?.detach(this);
    this.close();
  }
}

export interface HeldFrame {
  event: string;
  payload: unknown;
  frame: Buffer;
}

export interface SocketServerHooks {
  /**
   * At the upgrade, before any frame: may this request connect? `release` is called once when
   * the connection closes; a refused connection is answered CONNECT_ERROR `refused` and closed.
   */
  upgrade(
    req: IncomingMessage,
  ): { ok: true; release: () => void } | { ok: false; refused: ConnectErrorCode };
  /** The namespace CONNECT: resolves null to admit, or the CONNECT_ERROR message. */
  admit(conn: Conn, auth: Record<string, unknown>): Promise<string | null>;
  /** After the CONNECT answer went out. */
  connected(conn: Conn): void;
  disconnected(conn: Conn): void;
  /** After packets were written to `conn` outside a broadcast (a user event). */
  afterWrite(conn: Conn): void;
  events: Record<string, EventHandler>;
}

export interface SocketServerOptions {
  pingIntervalMs: number;
  pingTimeoutMs: number;
  maxPayload: number;
  connectTimeoutMs: number;
  /** How long a refused connection may stay open to hear why. */
  refusedGraceMs: number;
}

export class SocketServer {
  /** The namespace the adapters see (`nsp.sockets`, `nsp.name`, `nsp.server.encoder`). */
  readonly nsp: {
    name: '/';
    sockets: Map<string, Conn>;
    adapter: Adapter;
    server: { encoder: { encode(p: SioPacket): string[] }; opts: Record<string, unknown> };
    _ids: number;
    _onServerSideEmit(): void;
  };
  private readonly engine: EngineServer<Conn>;
  /** Open connections with no namespace yet (or again): the connect timeout's. */
  private readonly pending = new Set<Conn>();

  constructor(
    httpServer: HttpServer,
    readonly hooks: SocketServerHooks,
    private readonly opts: SocketServerOptions,
  ) {
    this.nsp = {
      name: '/',
      sockets: new Map(),
      adapter: null as unknown as Adapter,
      server: { encoder: { encode: (p) => [encodePacket(p)] }, opts: {} },
      _ids: 0,
      _onServerSideEmit() {},
    };
    this.nsp.adapter = new Adapter(this.nsp);
    this.engine = new EngineServer<Conn>(
      httpServer,
      {
        opened: (conn, req) => this.onOpen(conn, req),
        message: (conn, data) =>
          typeof data === 'string' ? this.onPacket(conn, data) : this.kill(conn), // text only
        closed: (conn) => this.onClose(conn),
        swept: (now) => {
          for (const conn of this.pending)
            if (now - conn.waitingSince > this.opts.connectTimeoutMs) this.kill(conn);
        },
      },
      {
        path: '/socket.io/',
        pingIntervalMs: opts.pingIntervalMs,
        pingTimeoutMs: opts.pingTimeoutMs,
        maxPayload: opts.maxPayload,
        Conn,
      },
    );
  }

  get adapter(): Adapter {
    return this.nsp.adapter;
  }

  setAdapter(adapter: Adapter): void {
    this.nsp.adapter = adapter;
  }

  /** Open Engine.IO connections, admitted to the namespace or not. */
  get clientsCount(): number {
    return this.engine.size;
  }

  get sockets(): Map<string, Conn> {
    return this.nsp.sockets;
  }

  /** A new connection: may this request connect? Refused ones hear why at their CONNECT. */
  private onOpen(conn: Conn, req: IncomingMessage): void {
    conn.server = this;
    conn.waitingSince = conn.openedAt;
    this.pending.add(conn);
    const verdict = this.hooks.upgrade(req);
    if (verdict.ok) {
      conn.release = verdict.release;
      return;
    }
    conn.refused = verdict.refused; // answered to its CONNECT; closed after the grace anyway
    setTimeout(() => conn.terminate(), this.opts.refusedGraceMs).unref();
  }

  /** A Socket.IO packet (an Engine.IO message's text). Malformed input ends the connection. */
  private onPacket(conn: Conn, text: string): void {
    const type = text.charCodeAt(0) - 48;
    let i = 1;
    let nsp = '/';
    if (text[i] === '/') {
      const comma = text.indexOf(',', i);
      nsp = comma === -1 ? text.slice(i) : text.slice(i, comma);
      i = comma === -1 ? text.length : comma + 1;
    }
    const idStart = i;
    while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    const id = i > idStart ? Number(text.slice(idStart, i)) : undefined;
    let data: unknown;
    try {
      data = i < text.length ? JSON.parse(text.slice(i)) : undefined;
    } catch {
      return this.kill(conn);
    }
    if (nsp !== '/') {
      if (type === CONNECT)
        conn.send(
          `4${encodePacket({ type: CONNECT_ERROR, nsp, data: { message: 'Invalid namespace' } })}`,
        );
      return;
    }
    switch (type) {
      case CONNECT:
        return this.onConnect(conn, data);
      case DISCONNECT:
        return this.leaveNamespace(conn);
      case EVENT:
        return this.onEvent(conn, data, id);
      case ACK: // the gateway asks for none
        return;
      default: // binary packets (5, 6), CONNECT_ERROR from a client, unknown types
        return this.kill(conn);
    }
  }

  private onConnect(conn: Conn, auth: unknown): void {
    if (conn.refused !== null) {
      // Refused at the upgrade: say why, then close once it is written.
      conn.send(
        `4${encodePacket({ type: CONNECT_ERROR, nsp: '/', data: { message: conn.refused } })}`,
      );
      conn.close();
      return;
    }
    if (conn.state !== State.Open) return; // a second CONNECT
    if (auth !== undefined && (typeof auth !== 'object' || auth === null || Array.isArray(auth)))
      return this.kill(conn);
    conn.state = State.Admitting;
    this.hooks.admit(conn, (auth ?? {}) as Record<string, unknown>).then(
      (error) => {
        if (conn.readyState !== WebSocket.OPEN || conn.state !== State.Admitting) return;
        if (error !== null) {
          conn.state = State.Open;
          conn.send(
            `4${encodePacket({ type: CONNECT_ERROR, nsp: '/', data: { message: error } })}`,
          );
          return;
        }
        conn.state = State.Connected;
        this.pending.delete(conn);
        this.nsp.sockets.set(conn.id, conn);
        conn.send(`4${encodePacket({ type: CONNECT, nsp: '/', data: { sid: conn.id } })}`);
        this.hooks.connected(conn);
      },
      () => this.kill(conn),
    );
  }

  private onEvent(conn: Conn, data: unknown, id: number | undefined): void {
    if (conn.state !== State.Connected) return;
    if (!Array.isArray(data) || typeof data[0] !== 'string') return this.kill(conn);
    const handler = Object.hasOwn(this.hooks.events, data[0]) ? this.hooks.events[data[0]] : null;
    if (!handler) return;
    let acked = false;
    const ack: Ack | null =
      id === undefined
        ? null
        : (...args) => {
            if (acked || conn.readyState !== WebSocket.OPEN) return;
            acked = true;
            conn.send(`4${encodePacket({ type: ACK, nsp: '/', id, data: args })}`);
          };
    handler(conn, data.slice(1), ack);
  }

  /**
   * The client left the namespace (DISCONNECT): as Socket.IO does, its connection stays and may
   * CONNECT again; until it does, the connect timeout applies to it anew.
   */
  private leaveNamespace(conn: Conn): void {
    if (conn.state !== State.Connected) return;
    this.nsp.sockets.delete(conn.id);
    this.nsp.adapter.delAll(conn.id);
    this.hooks.disconnected(conn);
    conn.state = State.Open;
    conn.waitingSince = performance.now();
    this.pending.add(conn);
  }

  /** Leaves the namespace (rooms, metrics) once; the connection may still be closing. */
  detach(conn: Conn): void {
    if (conn.state === State.Connected) {
      this.nsp.sockets.delete(conn.id);
      this.nsp.adapter.delAll(conn.id);
      conn.state = State.Closed;
      this.hooks.disconnected(conn);
    }
    conn.state = State.Closed;
    this.pending.delete(conn);
  }

  private onClose(conn: Conn): void {
    this.detach(conn);
    conn.release?.();
    conn.release = null;
    conn.held = null;
  }

  /** Ends a connection now (a protocol error, a dead or hopeless peer). */
  kill(conn: Conn): void {
    this.engine.kill(conn);
  }

  /** New connections are refused from now on (a draining gateway); those open stay. */
  stopAccepting(): void {
    this.engine.stopAccepting();
  }

  /** Closes every connection (each client hears a close and reconnects elsewhere). */
  async close(): Promise<void> {
    for (const conn of [...this.nsp.sockets.values(), ...this.pending]) this.detach(conn);
    await this.nsp.adapter.close?.();
    await this.engine.close();
  }
}
