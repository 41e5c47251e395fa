import { io, type Socket } from 'socket.io-client';
import { BehaviorSubject, Observable, Subject, defer } from 'rxjs';
import type { Channel, ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import type { ChannelTransport, SubscribeResult } from './channel-hub';
import { ServerClock } from './clock';
import type { ConnectionState } from './watchdog';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type EventPayload<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>[0];

const ACK_TIMEOUT_MS = 5_000;
const TIME_SYNC_MS = 30_000;
/** Pause before connecting again when socket.io itself will not (server kick, refused auth). */
const MANUAL_RETRY_MS = 2_000;

let socket: AppSocket | null = null;
let token: string | null = null;
let connectedBefore = false;
let switchingToken = false;
const connection = new BehaviorSubject<ConnectionState>('connecting');
const reconnects = new Subject<void>();
const authRejected = new Subject<void>();

/** The server clock; fed by `hello` and periodic `time` round trips. */
export const serverClock = new ServerClock();

function syncTime(s: AppSocket): void {
  const sentAt = Date.now();
  s.timeout(ACK_TIMEOUT_MS).emit('time', (err, answer) => {
    if (!err) serverClock.sample({ sentAt, receivedAt: Date.now(), serverTime: answer.serverTime });
  });
}

/**
 * The app's one socket, created on first use: same origin, path /socket.io, websocket only (no
 * long-polling fallback, so every gateway behind a balancer can take any client). Everything
 * else in the client reaches it through the observables below.
 */
export function getSocket(): AppSocket {
  if (socket) return socket;
  const s: AppSocket = io({
    path: '/socket.io',
    transports: ['websocket'],
    // A function, so a token set later is sent on the next (re)connection.
    auth: (cb) => cb(token ? { token } : {}),
  });
  s.on('connect', () => {
    connection.next('connected');
    if (connectedBefore) reconnects.next();
    connectedBefore = true;
    syncTime(s);
  });
  s.on('disconnect', (reason) => {
    // Our own reconnect for a new token (login, logout) is no lost network: report it as
    // connecting, so the watchdog only speaks up if the new connection is slow to come.
    connection.next(
      reason === 'io client disconnect' && switchingToken ? 'connecting' : 'disconnected',
    );
    switchingToken = false;
    // After a server-side disconnect socket.io does not reconnect by itself.
    if (reason === 'io server disconnect') setTimeout(() => s.connect(), MANUAL_RETRY_MS);
  });
  s.on('connect_error', (err) => {
    connection.next('disconnected');
    if (s.active) return; // socket.io retries transport errors with backoff on its own.
    if (err.message === 'UNAUTHENTICATED') {
      // A stale token must not cost the user their market data: go on anonymously.
      token = null;
      authRejected.next();
    }
    setTimeout(() => s.connect(), MANUAL_RETRY_MS);
  });
  s.on('hello', (hello) => serverClock.hello(hello.serverTime, Date.now()));
  setInterval(() => {
    if (s.connected) syncTime(s);
  }, TIME_SYNC_MS);
  socket = s;
  return s;
}

/** Sets (or clears) the session token and reconnects so the server sees it. */
export function setSocketToken(next: string | null): void {
  if (next === token) return;
  token = next;
  if (socket) {
    switchingToken = socket.connected;
    socket.disconnect().connect();
  }
}

/** 'connecting' (before the first connection), 'connected' or 'disconnected'. */
export const connection$: Observable<ConnectionState> = defer(() => {
  getSocket();
  return connection;
});

/** Emits on every connection after the first: whatever was loaded before may have gaps. */
export const reconnected$: Observable<void> = defer(() => {
  getSocket();
  return reconnects;
});

/** Emits when the server refused our token (the socket went on without it). */
export const authRejected$: Observable<void> = authRejected.asObservable();

/** Every `event` the server sends, for as long as it is subscribed. */
export function socketEvent$<E extends keyof ServerToClientEvents>(
  event: E,
): Observable<EventPayload<E>> {
  return new Observable<EventPayload<E>>((subscriber) => {
    const s = getSocket();
    // socket.io's typed `on` cannot relate a generic event name to its listener type.
    const listener = ((payload: EventPayload<E>) => subscriber.next(payload)) as never;
    s.on(event, listener);
    return () => {
      s.off(event, listener);
    };
  });
}

/** The channel hub's view of the socket. */
export const socketTransport: ChannelTransport = {
  isConnected: () => getSocket().connected,
  subscribe: (channels: Channel[]) =>
    new Promise<SubscribeResult>((resolve) => {
      getSocket()
        .timeout(ACK_TIMEOUT_MS)
        .emit('subscribe', channels, (err, answer) =>
          resolve(err ? { error: { code: 'TIMEOUT' } } : answer),
        );
    }),
  unsubscribe: (channels: Channel[]) => {
    getSocket().emit('unsubscribe', channels, () => undefined);
  },
  onConnect: (listener) => {
    getSocket().on('connect', listener);
  },
};
