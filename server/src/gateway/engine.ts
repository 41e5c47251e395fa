import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';

/**
 * Engine.IO v4 over WebSocket only: the open handshake, the heartbeat, close, and message
 * packets handed to the layer above (socket-server.ts speaks Socket.IO on it; the protocol
 * suites' echo server speaks nothing more). A connection is the `ws` WebSocket itself (a subclass
 * the layer above names), every handler is shared, and the heartbeat is one sweep for all.
 */

/** One Engine.IO connection: the `ws` socket, with the heartbeat's fields. */
export class EngineConn extends WebSocket {
  id = '';
  /** performance.now() at open. */
  openedAt = 0;
  /** performance.now() of the last ping sent, or of the open or pong after it. */
  beatAt = 0;
  /** A ping went out and no pong came back yet. */
  awaitingPong = false;
  engine: EngineServer<EngineConn> | null = null;
}

export interface EngineHooks<C extends EngineConn> {
  /** After the handshake went out (the upgrade request is still at hand). */
  opened(conn: C, req: IncomingMessage): void;
  /** A message packet: text (without its `4`), or a binary frame. */
  message(conn: C, data: string | Buffer): void;
  /** Closing or closed (killed, or its close came); may be called twice. */
  closed(conn: C): void;
  /** After each heartbeat sweep, for the layer's own timeouts. */
  swept?(now: number): void;
}

export interface EngineOptions<C extends EngineConn> {
  path: string;
  pingIntervalMs: number;
  pingTimeoutMs: number;
  maxPayload: number;
  /** The connection class `ws` creates (EngineConn or a subclass). */
  Conn: new (...args: never[]) => C;
}

const errors = {
  transport: { code: 0, message: 'Transport unknown' },
  session: { code: 1, message: 'Session ID unknown' },
  protocol: { code: 5, message: 'Unsupported protocol version' },
} as const;

const PING = [Buffer.from([0x81, 1, 0x32])]; // text frame "2"

/**
 * A ready frame straight to the socket, with no copy (what `ws` itself does for a broadcast's
 * pre-encoded frame). The one use of a `ws` internal: its tests fail loudly if `ws` changes it.
 */
export function sendFrame(conn: WebSocket, frame: Buffer[]): void {
  (conn as unknown as { _sender: { sendFrame(list: Buffer[]): void } })._sender.sendFrame(frame);
}

// Shared by every connection (`ws` calls them with `this` = the socket): no closures per socket.
function onWsMessage(this: WebSocket, data: Buffer, isBinary: boolean): void {
  const conn = this as EngineConn;
  conn.engine?.onMessage(conn, data, isBinary);
}
function onWsClose(this: WebSocket): void {
  const conn = this as EngineConn;
  conn.engine?.onClose(conn);
}
function onWsError(this: WebSocket): void {
  // `ws` closes the connection after a protocol error (and emits close): nothing to add.
}

export class EngineServer<C extends EngineConn> {
  private readonly wss: WebSocketServer;
  private readonly conns = new Set<C>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly requestListeners: ((req: IncomingMessage, res: ServerResponse) => void)[];
  private accepting = true;

  constructor(
    private readonly httpServer: HttpServer,
    private readonly hooks: EngineHooks<C>,
    private readonly opts: EngineOptions<C>,
  ) {
    this.wss = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      maxPayload: opts.maxPayload,
      clientTracking: false,
      WebSocket: opts.Conn as unknown as typeof WebSocket,
    });
    httpServer.on('upgrade', this.onUpgrade);
    // Plain HTTP to the path (a polling client) gets Engine.IO's answer; the rest goes on to
    // whatever handled requests before, as Socket.IO attaches itself.
    this.requestListeners = httpServer.listeners('request') as typeof this.requestListeners;
    httpServer.removeAllListeners('request');
    httpServer.on('request', this.onRequest);
    // A quarter of the shorter period: each ping goes out at most that late.
    this.sweeper = setInterval(
      () => this.sweep(),
      Math.max(10, Math.min(opts.pingIntervalMs, opts.pingTimeoutMs) / 4),
    );
    this.sweeper.unref();
  }

  /** Open connections. */
  get size(): number {
    return this.conns.size;
  }

  private readonly onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith(this.opts.path)) {
      const url = new URL(req.url, 'http://engine');
      const error = url.searchParams.get('EIO') !== '4' ? errors.protocol : errors.transport;
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(error));
      return;
    }
    for (const l of this.requestListeners) l.call(this.httpServer, req, res);
  };

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://engine');
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
    if (url.pathname !== this.opts.path || !this.accepting) return void socket.destroy();
    if (url.searchParams.get('EIO') !== '4') return refuse(errors.protocol);
    if (url.searchParams.get('transport') !== 'websocket') return refuse(errors.transport);
    if (url.searchParams.has('sid')) return refuse(errors.session); // no polling to upgrade from
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = ws as C;
      conn.id = randomBytes(15).toString('base64url');
      conn.engine = this;
      conn.openedAt = conn.beatAt = performance.now();
      conn.on('message', onWsMessage);
      conn.on('close', onWsClose);
      conn.on('error', onWsError);
      this.conns.add(conn);
      const { pingIntervalMs, pingTimeoutMs, maxPayload } = this.opts;
      conn.send(
        `0${JSON.stringify({ sid: conn.id, upgrades: [], pingInterval: pingIntervalMs, pingTimeout: pingTimeoutMs, maxPayload })}`,
      );
      this.hooks.opened(conn, req);
    });
  };

  onMessage(conn: C, data: Buffer, isBinary: boolean): void {
    if (isBinary) return this.hooks.message(conn, data);
    const text = data.toString();
    switch (text[0]) {
      case '3': // pong: the next ping a ping interval from now
        conn.awaitingPong = false;
        conn.beatAt = performance.now();
        return;
      case '4':
        return this.hooks.message(conn, text.slice(1));
      case '6': // noop
        return;
      case '1': // close
        return void conn.close();
      default: // empty, a ping from the client (protocol v3), an upgrade, anything else
        return this.kill(conn);
    }
  }

  onClose(conn: C): void {
    this.conns.delete(conn);
    this.hooks.closed(conn);
    conn.engine = null;
  }

  /** Ends a connection now (a protocol error, a dead or hopeless peer). */
  kill(conn: C): void {
    this.hooks.closed(conn);
    conn.terminate();
  }

  /**
   * The heartbeat, for every connection at once (Engine.IO v4: the server pings a ping interval
   * after the open or the last pong, and the client pongs): one that has not answered within the
   * ping timeout is dead.
   */
  private sweep(): void {
    const now = performance.now();
    const { pingIntervalMs, pingTimeoutMs } = this.opts;
    for (const conn of this.conns) {
      if (conn.awaitingPong) {
        if (now - conn.beatAt > pingTimeoutMs) this.kill(conn);
      } else if (now - conn.beatAt >= pingIntervalMs) {
        conn.awaitingPong = true;
        conn.beatAt = now;
        if (conn.readyState === WebSocket.OPEN) sendFrame(conn, PING);
      }
    }
    this.hooks.swept?.(now);
  }

  /** New connections are refused from now on (a draining gateway); those open stay. */
  stopAccepting(): void {
    this.accepting = false;
  }

  /** Closes every connection politely, then cuts what has not closed after a moment. */
  async close(): Promise<void> {
    this.accepting = false;
    clearInterval(this.sweeper);
    this.httpServer.off('upgrade', this.onUpgrade);
    const all = [...this.conns];
    for (const conn of all) conn.close();
    const deadline = performance.now() + 2000;
    while (this.conns.size > 0 && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    for (const conn of all) if (conn.readyState !== WebSocket.CLOSED) conn.terminate();
  }
}
