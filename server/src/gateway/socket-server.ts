import type { ConnectErrorCode } from '@shared/socket';
import { compareEventIds } from '@shared/user-events';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { WebSocket, WebSocketServer } from 'ws';
import { Adapter } from 'socket.io-adapter';

/**
 * The gateway's Socket.IO server: the Socket.IO v5 protocol over Engine.IO v4, websocket transport
 * only, default namespace only, text packets only (docs/DECISIONS.md, "The gateway speaks
 * Socket.IO itself"). socket.io-client and the app's client connect to it unchanged.
 *
 * Why not the `socket.io` package: per connection it keeps an Engine.IO socket, a transport, a
 * Socket.IO client and socket, a parser, the upgrade request and its headers, a ping timer and
 * eighteen bound functions: about 7 KB of heap over the 2.4 KB that `ws` and the TCP socket need.
 * Here a connection is the `ws` WebSocket itself (the `Conn` subclass) with a few more fields,
 * and every handler is shared. The heartbeat is one sweep for all connections, not two timers
 * each. Rooms and user events still go through a Socket.IO adapter (socket.io-adapter, or the
 * Redis adapter the api's emitter publishes to), so the api side is unchanged.
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
export class Conn extends WebSocket {
  id = '';
  userId: string | null = null;
  state: State = State.Open;
  /** A ping went out and no pong came back yet. */
  awaitingPong = false;
  /** performance.now() at open, for the connect timeout. */
  openedAt = 0;
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
    for (const p of encoded) if (typeof p === 'string') this.sawEventId(userEventIdOf(p));
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

interface WsSender {
  sendFrame(list: Buffer[]): void;
}

/** The id a user event's packet ends with (its `{"id":…}` meta), else null. */
export function userEventIdOf(encoded: string): string | null {
  const m = USER_EVENT_ID.exec(encoded);
  return m?.[1] ?? null;
}
const USER_EVENT_ID = /\{"id":"(\d{1,15}-\d{1,10})"\}\]$/;

/** A ready frame straight to the socket (what `ws` itself does for a pre-encoded broadcast). */
export function sendFrame(conn: Conn, frame: Buffer[]): void {
  (conn as unknown as { _sender: WsSender })._sender.sendFrame(frame);
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

const path = '/socket.io/';
const engineErrors = {
  transport: { code: 0, message: 'Transport unknown' },
  session: { code: 1, message: 'Session ID unknown' },
  protocol: { code: 5, message: 'Unsupported protocol version' },
} as const;

// Shared by every connection (`ws` calls them with `this` = the socket): no closures per socket.
function onWsMessage(this: WebSocket, data: Buffer, isBinary: boolean): void {
  const conn = this as Conn;
  conn.server?.onMessage(conn, data, isBinary);
}
function onWsClose(this: WebSocket): void {
  const conn = this as Conn;
  conn.server?.onClose(conn);
}
function onWsError(this: WebSocket): void {
  // `ws` closes the connection after a protocol error (and emits close): nothing to add.
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
  private readonly wss: WebSocketServer;
  private readonly pending = new Set<Conn>();
  private open = 0;
  private readonly sweeper: NodeJS.Timeout;
  private readonly requestListeners: ((req: IncomingMessage, res: ServerResponse) => void)[];
  private closed = false;

  constructor(
    private readonly httpServer: HttpServer,
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
    this.wss = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      maxPayload: opts.maxPayload,
      clientTracking: false,
      WebSocket: Conn,
    });
    httpServer.on('upgrade', this.onUpgrade);
    // Plain HTTP to /socket.io/ (a polling client) gets Engine.IO's answer; the rest goes on to
    // whatever handled requests before, as Socket.IO attaches itself.
    this.requestListeners = httpServer.listeners('request') as typeof this.requestListeners;
    httpServer.removeAllListeners('request');
    httpServer.on('request', this.onRequest);
    this.sweeper = setInterval(() => this.sweep(), opts.pingIntervalMs);
    this.sweeper.unref();
  }

  get adapter(): Adapter {
    return this.nsp.adapter;
  }

  setAdapter(adapter: Adapter): void {
    this.nsp.adapter = adapter;
  }

  /** Open Engine.IO connections, admitted to the namespace or not. */
  get clientsCount(): number {
    return this.open;
  }

  get sockets(): Map<string, Conn> {
    return this.nsp.sockets;
  }

  private readonly onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith(path)) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(engineErrors.transport));
      return;
    }
    for (const l of this.requestListeners) l.call(this.httpServer, req, res);
  };

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://gateway');
    } catch {
      return void socket.destroy();
    }
    const refuse = (error: { code: number; message: string }) => {
      const body = JSON.stringify(error);
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    };
    if (url.pathname !== path || this.closed) return void socket.destroy();
    if (url.searchParams.get('EIO') !== '4') return refuse(engineErrors.protocol);
    if (url.searchParams.get('transport') !== 'websocket') return refuse(engineErrors.transport);
    if (url.searchParams.has('sid')) return refuse(engineErrors.session);
    const verdict = this.hooks.upgrade(req);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = ws as Conn;
      conn.id = randomBytes(15).toString('base64url');
      conn.server = this;
      conn.openedAt = performance.now();
      conn.on('message', onWsMessage);
      conn.on('close', onWsClose);
      conn.on('error', onWsError);
      this.open++;
      this.pending.add(conn);
      const { pingIntervalMs, pingTimeoutMs, maxPayload } = this.opts;
      conn.send(
        `0${JSON.stringify({ sid: conn.id, upgrades: [], pingInterval: pingIntervalMs, pingTimeout: pingTimeoutMs, maxPayload })}`,
      );
      if (verdict.ok) {
        conn.release = verdict.release;
        return;
      }
      conn.refused = verdict.refused; // answered to its CONNECT; closed after the grace anyway
      setTimeout(() => conn.terminate(), this.opts.refusedGraceMs).unref();
    });
  };

  onMessage(conn: Conn, data: Buffer, isBinary: boolean): void {
    const text = isBinary ? null : data.toString();
    if (text === null || !text.length) return this.kill(conn);
    switch (text[0]) {
      case '3': // pong
        conn.awaitingPong = false;
        return;
      case '4':
        return this.onPacket(conn, text);
      case '6': // noop
        return;
      case '1': // close
        return void conn.close();
      default: // a ping from the client (protocol v3), an upgrade, anything else
        return this.kill(conn);
    }
  }

  /** Engine.IO message `text` ("4" + a Socket.IO packet). Malformed input ends the connection. */
  private onPacket(conn: Conn, text: string): void {
    const type = text.charCodeAt(1) - 48;
    let i = 2;
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
        return void conn.close();
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

  onClose(conn: Conn): void {
    this.detach(conn);
    this.open--;
    conn.release?.();
    conn.release = null;
    conn.held = null;
    conn.server = null;
  }

  /** Ends a connection now (a protocol error, a dead or hopeless peer). */
  kill(conn: Conn): void {
    this.detach(conn);
    conn.terminate();
  }

  /**
   * The heartbeat, for every connection at once: one that has not answered the previous ping is
   * dead; the others get a ping (Engine.IO v4: the server pings, the client pongs). A connection
   * with no namespace after the connect timeout is closed, as Socket.IO does.
   */
  private sweep(): void {
    const ping = [Buffer.from([0x81, 1, 0x32])]; // text frame "2"
    for (const conn of this.nsp.sockets.values()) {
      if (conn.awaitingPong) {
        this.kill(conn);
        continue;
      }
      conn.awaitingPong = true;
      if (conn.readyState === WebSocket.OPEN) sendFrame(conn, ping);
    }
    const now = performance.now();
    for (const conn of this.pending)
      if (now - conn.openedAt > this.opts.connectTimeoutMs) this.kill(conn);
  }

  /** New connections are refused from now on (a draining gateway); those open stay. */
  stopAccepting(): void {
    this.closed = true;
  }

  /** Closes every connection (each client hears a close and reconnects elsewhere). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    const all = [...this.nsp.sockets.values(), ...this.pending];
    for (const conn of all) {
      this.detach(conn);
      conn.close();
    }
    await this.nsp.adapter.close?.();
    this.httpServer.off('upgrade', this.onUpgrade);
    // Whatever has not closed politely after a moment is cut.
    const deadline = performance.now() + 2000;
    while (this.open > 0 && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    for (const conn of all) if (conn.readyState !== WebSocket.CLOSED) conn.terminate();
  }
}
