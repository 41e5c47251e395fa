import type { MarketSnapshot, ProductStatusEvent, Tick } from './market/model';
import type { AccountSummary, Deposit } from './wallet/model';
import type { Order } from './orders/model';
import type { PriceAlert } from './alerts/model';

/**
 * The Socket.IO protocol, typed once and passed as generics to both `new Server<…>()` and
 * `io<…>()`. Payload shapes are those of API.md.
 */
export type Channel = 'market' | `ticks:${string}`;

export type AckError = { error: { code: SocketErrorCode; message?: string } };
export type SubscribeAck = { ok: true } | AckError;
/** `time`'s answer; RATE_LIMITED like every event past the socket's rate. */
export type TimeAck = { serverTime: number } | AckError;

export type SocketErrorCode =
  | 'VALIDATION_FAILED'
  | 'NOT_FOUND'
  | 'RATE_LIMITED'
  | 'TOO_MANY_CHANNELS'
  | 'UNAUTHENTICATED'
  | 'UNAVAILABLE';

/**
 * Why a connection was refused (`connect_error`'s message): `UNAUTHENTICATED` the token's session
 * is over (expired, logged out, revoked); `UNAVAILABLE` the token could not be checked just now
 * (try again, still signed in); `RATE_LIMITED` too many connections from the client's address.
 */
export type ConnectErrorCode = Extract<
  SocketErrorCode,
  'UNAUTHENTICATED' | 'UNAVAILABLE' | 'RATE_LIMITED'
>;

/**
 * Why the server ended a session: `logout` it was logged out (here or in another tab),
 * `password_changed` / `trade_password_changed` the user changed a password on another session,
 * which ends all the others.
 */
/** `revoked`: support ended the user's sessions (issue 20). */
export type SessionEndReason = 'logout' | 'password_changed' | 'trade_password_changed' | 'revoked';

export interface SessionEnded {
  reason: SessionEndReason;
}

/**
 * A socket ticket: the gateway's signed word that this session was live, good until `expiresAt`
 * (ms since the epoch). Sent back with the token at the next connection, it is checked by the
 * gateway itself instead of by the api (API.md, Socket tickets).
 */
export interface SocketTicket {
  value: string;
  expiresAt: number;
}

export interface Hello {
  serverTime: number;
  userId: string | null;
  /** For a signed-in socket, when the gateway issues tickets. */
  ticket?: SocketTicket;
  /**
   * Signed-in sockets only: whether the user events after the handshake's `since` were all
   * replayed before this hello (`complete`), or some may be missing (`gap`: no `since`, the
   * buffer no longer reaches back to it, or it could not be read). On a gap the client reads
   * its state again.
   */
  replay?: 'complete' | 'gap';
  /** Signed-in sockets only: the newest buffered user event's id (null when none is). */
  lastEventId?: string | null;
}

/** What follows a user event's payload: its id (monotonic per user, `<ms>-<n>`). */
export interface UserEventMeta {
  id: string;
}

/**
 * Ticks of `product` with seq `from`..`to` (inclusive) could not be replayed after a
 * re-subscription: the gateway no longer holds them (`to` null: it holds none yet). The client
 * reloads its history.
 */
export interface TicksGap {
  product: string;
  from: number;
  to: number | null;
}

/**
 * `subscribe`'s optional second argument: per product, the seq of the last tick the client
 * holds; the gateway sends the ticks after it (or a `ticksGap`) instead of the latest tick.
 */
export interface SubscribeOptions {
  after?: Record<string, number>;
}

export interface ServerToClientEvents {
  hello: (hello: Hello) => void;
  market: (snapshot: MarketSnapshot) => void;
  tick: (tick: Tick) => void;
  product: (product: ProductStatusEvent) => void;
  /** After a re-subscription whose ticks the gateway no longer holds. */
  ticksGap: (gap: TicksGap) => void;
  /** To the user's room when one of their orders opens or settles. */
  order: (order: Order, meta?: UserEventMeta) => void;
  /** To the user's room when their balances change. */
  balance: (summary: AccountSummary, meta?: UserEventMeta) => void;
  /** To the user's room when a system message arrives. */
  message: (message: { id: string; title: string }, meta?: UserEventMeta) => void;
  /**
   * To the user's room when one of their deposits is seen on chain, gains confirmations, is
   * credited, dropped or reviewed.
   */
  deposit: (deposit: Deposit, meta?: UserEventMeta) => void;
  /** To the user's room when a device acknowledged results: the others stop showing them. */
  results: (seen: { ids: string[] }, meta?: UserEventMeta) => void;
  /** To the user's room when their drawings on a product's chart changed: read them again. */
  drawings: (changed: { product: string }, meta?: UserEventMeta) => void;
  /** To the user's room when one of their price alerts fired (its tick; the message follows). */
  alert: (alert: PriceAlert, meta?: UserEventMeta) => void;
  /**
   * To the sockets of a session the server has just ended, right before it disconnects them
   * (`io server disconnect`); their token is refused from then on.
   */
  sessionEnded: (ended: SessionEnded) => void;
  /** A fresh ticket for a signed-in socket, before the one it holds expires. */
  ticket: (ticket: SocketTicket) => void;
}

/** The events the api sends to one user's sockets (through whichever gateway holds them). */
export const userEventNames = [
  'order',
  'balance',
  'message',
  'deposit',
  'results',
  'drawings',
  'alert',
] as const;
export type UserEventName = (typeof userEventNames)[number];

export interface ClientToServerEvents {
  /** With `options` from clients that replay ticks; without from older ones. */
  subscribe: (
    channels: string[],
    ...rest:
      | [ack: (answer: SubscribeAck) => void]
      | [options: SubscribeOptions, ack: (answer: SubscribeAck) => void]
  ) => void;
  unsubscribe: (channels: string[], ack: (answer: SubscribeAck) => void) => void;
  time: (ack: (answer: TimeAck) => void) => void;
}

/** What the gateway answers a client event `E` with: its acknowledgement's argument. */
export type ClientEventAnswer<E extends keyof ClientToServerEvents> = LastAnswer<
  Parameters<ClientToServerEvents[E]>
>;
type LastAnswer<P> = P extends [...unknown[], (answer: infer A) => void] ? A : never;

/** Channel names, parsed: `market` or `ticks:<productId>`. */
export function parseChannel(
  raw: unknown,
): { kind: 'market' } | { kind: 'ticks'; productId: string } | null {
  if (raw === 'market') return { kind: 'market' };
  if (typeof raw === 'string' && /^ticks:[A-Z0-9]{2,16}$/.test(raw))
    return { kind: 'ticks', productId: raw.slice(6) };
  return null;
}

/** Limits a socket lives by. */
export const socketLimits = {
  maxChannels: 20,
  eventsPerSecond: 20,
} as const;
