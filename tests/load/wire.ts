import WebSocket from 'ws';
import type { Tick } from '@shared/market/model';

/**
 * A light Socket.IO client: Engine.IO v4 + Socket.IO v5 spoken directly over one `ws` socket,
 * default namespace, text frames only. socket.io-client keeps per-socket managers, timers and
 * buffers; this keeps a handful of fields, so thousands of connections fit in one process.
 *
 * Wire facts this relies on (websocket transport, no polling, so no payload batching):
 * one WebSocket frame = one Engine.IO packet; its first character is the packet type
 * (0 open, 1 close, 2 ping, 3 pong, 4 message, 6 noop). A message carries one Socket.IO packet
 * whose first character is its type (0 CONNECT, 1 DISCONNECT, 2 EVENT, 3 ACK, 4 CONNECT_ERROR),
 * then an optional ack id (digits), then the JSON body. With EIO=4 the *server* pings and the
 * client answers each `2` with `3`.
 */

export type Frame =
  | { kind: 'open'; sid: string; pingInterval: number; pingTimeout: number }
  | { kind: 'ping' }
  | { kind: 'close' }
  | { kind: 'noop' }
  | { kind: 'connect'; sid: string }
  | { kind: 'connect_error'; message: string }
  | { kind: 'disconnect' }
  | { kind: 'tick'; tick: Tick }
  | { kind: 'market'; ts: number }
  | { kind: 'hello'; serverTime: number }
  | { kind: 'event'; name: string; args: unknown[] }
  | { kind: 'ack'; id: number; args: unknown[] }
  | { kind: 'unknown'; text: string };

export const PONG = '3';
export const DISCONNECT = '41';

/** `http://h:p` (or ws://) → the Engine.IO websocket endpoint the gateway serves. */
export function engineUrl(base: string): string {
  const u = new URL(base);
  // The gateway serves /socket.io/ at the root; a base with a path would be silently dropped.
  if (u.pathname !== '/')
    throw new Error(`${base}: give the gateway's base URL, without a path (it serves /socket.io/)`);
  u.protocol = u.protocol === 'https:' || u.protocol === 'wss:' ? 'wss:' : 'ws:';
  u.pathname = '/socket.io/';
  u.search = '?EIO=4&transport=websocket';
  u.hash = '';
  return u.toString();
}

/** Socket.IO CONNECT to the default namespace; auth goes in the body (as `io(url, { auth })`). */
export function encodeConnect(auth?: Record<string, unknown>): string {
  return auth ? `40${JSON.stringify(auth)}` : '40';
}

/** Socket.IO EVENT, e.g. `420["subscribe",["market"]]` when an ack id (0) is asked for. */
export function encodeEvent(name: string, args: unknown[], ackId?: number): string {
  return `42${ackId ?? ''}${JSON.stringify([name, ...args])}`;
}

// The hot events are recognised by prefix so that a tick costs one small JSON.parse and a
// market snapshot (several KB) costs none: only its leading `ts` is read.
const TICK_PREFIX = '42["tick",';
const MARKET_PREFIX = '42["market",{"ts":';

/** Decodes one text frame. Pure; never throws (malformed input → `unknown`). */
export function decodeFrame(text: string): Frame {
  try {
    return decode(text);
  } catch {
    return { kind: 'unknown', text };
  }
}

function decode(text: string): Frame {
  if (text.startsWith(TICK_PREFIX)) {
    const tick = JSON.parse(text.slice(TICK_PREFIX.length, -1)) as Tick;
    if (typeof tick.ts === 'number' && typeof tick.seq === 'number') return { kind: 'tick', tick };
    return { kind: 'unknown', text };
  }
  if (text.startsWith(MARKET_PREFIX)) {
    const ts = leadingNumber(text, MARKET_PREFIX.length);
    if (ts !== null) return { kind: 'market', ts };
  }
  switch (text[0]) {
    case '0': {
      const o = JSON.parse(text.slice(1)) as {
        sid: string;
        pingInterval: number;
        pingTimeout: number;
      };
      return { kind: 'open', sid: o.sid, pingInterval: o.pingInterval, pingTimeout: o.pingTimeout };
    }
    case '1':
      return { kind: 'close' };
    case '2':
      return { kind: 'ping' };
    case '6':
      return { kind: 'noop' };
    case '4':
      return decodeSocketPacket(text);
    default:
      return { kind: 'unknown', text };
  }
}

function decodeSocketPacket(text: string): Frame {
  const type = text[1];
  // Default namespace only: a `/name,` prefix means a packet for another namespace.
  if (text[2] === '/') return { kind: 'unknown', text };
  let i = 2;
  while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
  const id = i > 2 ? Number(text.slice(2, i)) : null;
  const body = text.slice(i);
  switch (type) {
    case '0':
      return { kind: 'connect', sid: (JSON.parse(body) as { sid: string }).sid };
    case '1':
      return { kind: 'disconnect' };
    case '4': {
      const e = (body ? JSON.parse(body) : {}) as { message?: string };
      return { kind: 'connect_error', message: e.message ?? 'connect error' };
    }
    case '3':
      if (id === null) return { kind: 'unknown', text };
      return { kind: 'ack', id, args: JSON.parse(body) as unknown[] };
    case '2': {
      const [name, ...args] = JSON.parse(body) as [string, ...unknown[]];
      if (name === 'hello')
        return { kind: 'hello', serverTime: (args[0] as { serverTime: number }).serverTime };
      if (name === 'market') return { kind: 'market', ts: (args[0] as { ts: number }).ts };
      if (name === 'tick') return { kind: 'tick', tick: args[0] as Tick };
      return { kind: 'event', name, args };
    }
    default:
      return { kind: 'unknown', text };
  }
}

function leadingNumber(text: string, from: number): number | null {
  let i = from;
  while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
  return i > from ? Number(text.slice(from, i)) : null;
}

// Every socket in a room receives the very same frame, one after the other in this process, so
// decoding the previous text again would repeat work: remember the last one. Frames are treated
// as read-only by every consumer.
let lastText = '';
let lastFrame: Frame = { kind: 'noop' };
function decodeShared(text: string): Frame {
  if (text !== lastText) {
    lastFrame = decodeFrame(text);
    lastText = text;
  }
  return lastFrame;
}

/** What a light client reports; one sink is shared by every client of a run (no per-client closures). */
export interface LightClientSink {
  connected(client: LightClient, connectMs: number): void;
  subscribed(client: LightClient, answer: unknown): void;
  tick(client: LightClient, tick: Tick, receivedAt: number): void;
  market(client: LightClient, ts: number, receivedAt: number): void;
  failed(client: LightClient, reason: string): void;
  closed(client: LightClient, reason: string): void;
  /** Any other event (`hello`, `order`, `balance`, …); optional, for signed-in clients. */
  event?(client: LightClient, name: string, args: unknown[], receivedAt: number): void;
}

export interface LightClientOptions {
  url: string;
  channels: string[];
  auth?: Record<string, unknown>;
  connectTimeoutMs?: number;
  /** The connect's planned slot (epoch ms): its latency counts from there, not from the attempt. */
  plannedAt?: number;
}

/**
 * A connect failure's reason, as the report counts them: `refused` (nothing accepted the TCP
 * connection), `reset` (accepted, then dropped before the upgrade: a proxy or server over its
 * connection limit), `HTTP <status>` (the upgrade answered with an error), `timeout`, and the
 * server's `connect_error <message>`; anything else by its message.
 */
export function connectFailureReason(err: Error & { code?: string }): string {
  if (err.code === 'ECONNREFUSED') return 'refused';
  if (err.code === 'ECONNRESET' || err.message === 'socket hang up') return 'reset';
  const status = /^Unexpected server response: (\d+)$/.exec(err.message);
  if (status) return `HTTP ${status[1]}`;
  return err.message;
}

/** Receipt time in epoch ms with sub-ms resolution (same clock as Date.now(), finer grain). */
export const nowMs = (): number => performance.timeOrigin + performance.now();

export class LightClient {
  state: 'connecting' | 'connected' | 'subscribed' | 'closed' = 'connecting';
  /** Products whose first tick (the snapshot sent on subscribe, not a live tick) has been seen. */
  readonly seen = new Set<string>();
  private readonly ws: WebSocket;
  private readonly started: number;
  private timer: NodeJS.Timeout | undefined;
  private closing = false;
  private readonly subscribeAckId = 0;
  private nextAckId = 1;
  private readonly pending = new Map<number, (args: unknown[]) => void>();

  constructor(
    private readonly opts: LightClientOptions,
    private readonly sink: LightClientSink,
  ) {
    this.started = Math.min(opts.plannedAt ?? Infinity, nowMs());
    // Socket.IO servers do not compress by default; not offering it saves a zlib context each.
    this.ws = new WebSocket(engineUrl(opts.url), { perMessageDeflate: false });
    this.timer = setTimeout(() => this.fail('timeout'), opts.connectTimeoutMs ?? 10_000);
    this.ws.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) this.onText(data.toString());
    });
    this.ws.on('error', (err) => this.fail(connectFailureReason(err)));
    this.ws.on('close', () => this.onClose());
  }

  private onText(text: string): void {
    const f = decodeShared(text);
    switch (f.kind) {
      case 'tick':
        this.sink.tick(this, f.tick, nowMs());
        return;
      case 'market':
        this.sink.market(this, f.ts, nowMs());
        return;
      case 'ping':
        this.ws.send(PONG);
        return;
      case 'open':
        this.ws.send(encodeConnect(this.opts.auth));
        return;
      case 'connect':
        clearTimeout(this.timer);
        this.state = 'connected';
        this.sink.connected(this, nowMs() - this.started);
        // A signed-in client may want its user events only: nothing to subscribe to.
        if (this.opts.channels.length)
          this.ws.send(encodeEvent('subscribe', [this.opts.channels], this.subscribeAckId));
        return;
      case 'hello':
        this.sink.event?.(this, 'hello', [{ serverTime: f.serverTime }], nowMs());
        return;
      case 'event':
        this.sink.event?.(this, f.name, f.args, nowMs());
        return;
      case 'ack':
        if (f.id !== this.subscribeAckId) {
          this.pending.get(f.id)?.(f.args);
          this.pending.delete(f.id);
          return;
        }
        if (this.state === 'connected') this.state = 'subscribed';
        this.sink.subscribed(this, f.args[0]);
        return;
      case 'connect_error':
        this.fail(`connect_error ${f.message}`);
        return;
      case 'disconnect':
      case 'close':
        this.ws.close();
        return;
      default:
        return;
    }
  }

  /** A failure before the connection was established counts as a connect failure, not a drop. */
  private fail(reason: string): void {
    if (this.state === 'closed') return;
    if (this.closing && this.state === 'connecting') return this.onClose();
    if (this.state === 'connecting') {
      clearTimeout(this.timer);
      this.state = 'closed';
      this.sink.failed(this, reason);
      this.ws.terminate();
    } else if (!this.closing) {
      this.ws.terminate();
    }
  }

  /** Emits `name` with an ack; resolves with the ack's arguments, or null after `timeoutMs`. */
  request(name: string, args: unknown[] = [], timeoutMs = 5000): Promise<unknown[] | null> {
    if (this.state !== 'connected' && this.state !== 'subscribed') return Promise.resolve(null);
    const id = this.nextAckId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(null);
      }, timeoutMs);
      this.pending.set(id, (a) => {
        clearTimeout(timer);
        resolve(a);
      });
      this.ws.send(encodeEvent(name, args, id));
    });
  }

  private onClose(): void {
    clearTimeout(this.timer);
    if (this.state === 'closed') return;
    const wasConnecting = this.state === 'connecting';
    this.state = 'closed';
    // A connect this tool abandoned (the run's end, a ramp-down) is not the server's failure.
    if (wasConnecting && this.closing) this.sink.closed(this, 'abandoned');
    else if (wasConnecting) this.sink.failed(this, 'closed before connect');
    else this.sink.closed(this, this.closing ? 'client' : 'server');
  }

  /** Closed, or closing at this tool's request (the close handshake may still be under way). */
  get done(): boolean {
    return this.closing || this.state === 'closed';
  }

  /** Closes politely, as socket.io-client does: namespace DISCONNECT, then the WebSocket close. */
  close(): void {
    this.closing = true;
    clearTimeout(this.timer);
    if (this.ws.readyState === WebSocket.OPEN) {
      if (this.state !== 'connecting') this.ws.send(DISCONNECT);
      this.ws.close(1000);
    } else if (this.ws.readyState === WebSocket.CONNECTING) {
      this.ws.terminate();
    } else if (this.state === 'connecting') {
      this.onClose(); // between the upgrade and the namespace CONNECT: abandoned, not failed
    }
  }

  /** Drops the connection at once, for sockets that did not finish closing in time. */
  terminate(): void {
    this.closing = true;
    clearTimeout(this.timer);
    if (this.ws.readyState !== WebSocket.CLOSED) this.ws.terminate();
  }

  /** Resolves once the socket is closed (used to bound shutdown). */
  whenClosed(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => this.ws.once('close', () => resolve()));
  }
}
