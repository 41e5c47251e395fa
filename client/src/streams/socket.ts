import type { io as Io, Socket } from 'socket.io-client';
import { BehaviorSubject, Observable, Subject, defer } from 'rxjs';
import {
  userEventNames,
  type Channel,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SubscribeOptions,
  type UserEventMeta,
  type UserEventName,
} from '@shared/socket';
import { createUserEventCursor } from '@shared/user-events';
import type { ChannelTransport, SubscribeResult } from './channel-hub';
import { ServerClock } from './clock';
import { createSessionLink, type SessionEnd } from './session-link';
import type { ConnectionState } from './watchdog';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type EventPayload<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>[0];

const ACK_TIMEOUT_MS = 5_000;
const TIME_SYNC_MS = 30_000;
/**
 * Pause before connecting again when socket.io itself will not (server kick, refused auth): 0.5-3 s,
 * spread so that the sockets of a draining gateway do not all come back in the same instant.
 */
const MANUAL_RETRY_MS = { min: 500, max: 3_000 };
/** After RATE_LIMITED: 5-15 s, spread so that clients behind one address do not return together. */
const rateLimitedMs = () => 5_000 + Math.random() * 10_000;

let socket: AppSocket | null = null;
let loading: Promise<AppSocket> | null = null;
let switchingToken = false;
const connection = new BehaviorSubject<ConnectionState>('connecting');
const missed = new Subject<void>();
const sessionEnds = new Subject<SessionEnd>();
/** The user events seen: each passed on once, the newest sent as `since` on reconnection. */
const userEventCursor = createUserEventCursor();
const userEvents: { [E in UserEventName]: Subject<EventPayload<E>> } = {
  order: new Subject(),
  balance: new Subject(),
  message: new Subject(),
  deposit: new Subject(),
  results: new Subject(),
  alert: new Subject(),
  drawings: new Subject(),
};
const link = createSessionLink({
  since: (token) => userEventCursor.since(token),
  connect: () => {
    if (socket && !socket.active) socket.connect();
  },
  onEnded: (end) => sessionEnds.next(end),
  retryMs: MANUAL_RETRY_MS,
  rateLimitedMs,
});

/** The server clock; fed by `hello` and periodic `time` round trips. */
export const serverClock = new ServerClock();

function syncTime(s: AppSocket): void {
  const sentAt = Date.now();
  s.timeout(ACK_TIMEOUT_MS).emit('time', (err, answer) => {
    // A RATE_LIMITED answer carries no time: the next round trip will.
    if (!err && 'serverTime' in answer)
      serverClock.sample({ sentAt, receivedAt: Date.now(), serverTime: answer.serverTime });
  });
}

/**
 * The app's one socket, created on first use: same origin, path /socket.io, websocket only (no
 * long-polling fallback, so every gateway behind a balancer can take any client). Everything
 * else in the client reaches it through the observables below.
 *
 * socket.io-client is a chunk of its own, imported on first use: it is not needed to draw the
 * first screen (prices come from REST first), and evaluating it with the entry made the start's
 * longest task longer. The first use starts the download; callers get the socket when it is there.
 */
export function loadSocket(): Promise<AppSocket> {
  loading ??= importClient().then((io) => {
    socket = createSocket(io);
    return socket;
  });
  return loading;
}

/** The client library; a failed download (offline, server restarting) is tried again. */
function importClient(): Promise<typeof Io> {
  return import('socket.io-client').then(
    ({ io }) => io,
    () => {
      connection.next('disconnected');
      return new Promise<void>((resolve) => setTimeout(resolve, MANUAL_RETRY_MS.max)).then(
        importClient,
      );
    },
  );
}

function createSocket(io: typeof Io): AppSocket {
  const s: AppSocket = io({
    path: '/socket.io',
    transports: ['websocket'],
    // A function, so a token set later is sent on the next (re)connection.
    auth: (cb) => cb(link.auth()),
  });
  s.on('connect', () => {
    connection.next('connected');
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
    link.disconnected(reason);
  });
  s.on('connect_error', (err) => {
    connection.next('disconnected');
    link.connectError(err.message, s.active);
  });
  s.on('sessionEnded', ({ reason }) => link.sessionEnded(reason));
  s.on('hello', (hello) => {
    serverClock.hello(hello.serverTime, Date.now());
    if (hello.ticket) link.ticketReceived(hello.ticket);
    if (userEventCursor.hello(hello)) missed.next();
  });
  s.on('ticket', (ticket) => link.ticketReceived(ticket));
  for (const name of userEventNames) relayUserEvent(s, name);
  setInterval(() => {
    if (s.connected) syncTime(s);
  }, TIME_SYNC_MS);
  return s;
}

/**
 * One user event to its subject, unless its id was seen (it can come twice: live while the
 * replay after a reconnection is read, and in the replay). Done once per socket, not per
 * subscriber, so every subscriber sees each event once.
 */
function relayUserEvent<E extends UserEventName>(s: AppSocket, name: E): void {
  const listener = (payload: EventPayload<E>, meta?: UserEventMeta) => {
    if (userEventCursor.accept(meta?.id)) userEvents[name].next(payload);
  };
  // socket.io's typed `on` cannot relate a generic event name to its listener type.
  s.on(name, listener as never);
}

/** Sets (or clears) the session token and reconnects so the server sees it. */
export function setSocketToken(next: string | null): void {
  if (next === link.token) return;
  link.setToken(next);
  if (socket) {
    switchingToken = socket.connected;
    socket.disconnect().connect();
  }
}

/** 'connecting' (before the first connection), 'connected' or 'disconnected'. */
export const connection$: Observable<ConnectionState> = defer(() => {
  void loadSocket();
  return connection;
});

/**
 * Emits when a reconnection's replay of the user's events was not complete (docs/API.md, "Missed
 * events"): whatever of the user was loaded before may be behind. Never on the page's first
 * connection, nor when the replay brought every missed event.
 */
export const userEventsMissed$: Observable<void> = defer(() => {
  void loadSocket();
  return missed;
});

/** Events for the logged-in user (`order`, `balance`, `message`, `deposit`), each once. */
export function userEvent$<E extends UserEventName>(event: E): Observable<EventPayload<E>> {
  return defer(() => {
    void loadSocket();
    return userEvents[event];
  });
}

/**
 * Emits when the server ended the session of the token the socket carried (it said so, or
 * refused the token); the socket goes on without it. Never for a lost network or a restart.
 */
export const sessionEnded$: Observable<SessionEnd> = sessionEnds.asObservable();

/** Every `event` the server sends, for as long as it is subscribed. */
export function socketEvent$<E extends keyof ServerToClientEvents>(
  event: E,
): Observable<EventPayload<E>> {
  return new Observable<EventPayload<E>>((subscriber) => {
    // socket.io's typed `on` cannot relate a generic event name to its listener type.
    const listener = ((payload: EventPayload<E>) => subscriber.next(payload)) as never;
    let subscribed = true;
    void loadSocket().then((s) => {
      if (subscribed) s.on(event, listener);
    });
    return () => {
      subscribed = false;
      socket?.off(event, listener);
    };
  });
}

/** The channel hub's view of the socket; a subscription may say which ticks it holds. */
export const socketTransport: ChannelTransport & {
  subscribe(channels: Channel[], options?: SubscribeOptions): Promise<SubscribeResult>;
} = {
  isConnected: () => socket?.connected ?? false,
  subscribe: (channels: Channel[], options: SubscribeOptions = {}) =>
    loadSocket().then(
      (s) =>
        new Promise<SubscribeResult>((resolve) => {
          s.timeout(ACK_TIMEOUT_MS).emit('subscribe', channels, options, (err, answer) =>
            resolve(err ? { error: { code: 'TIMEOUT' } } : answer),
          );
        }),
    ),
  unsubscribe: (channels: Channel[]) => {
    socket?.emit('unsubscribe', channels, () => undefined);
  },
  onConnect: (listener) => {
    void loadSocket().then((s) => s.on('connect', listener));
  },
};
