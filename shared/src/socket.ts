import { z } from 'zod';
import type { MarketSnapshot, ProductStatusEvent, Tick } from './market';
import type { AccountSummary } from './wallet';
import type { Order } from './orders';

/**
 * The Socket.IO protocol, typed once and passed as generics to both `new Server<…>()` and
 * `io<…>()`. Payload shapes are those of API.md.
 */
export type Channel = 'market' | `ticks:${string}`;

export type AckError = { error: { code: SocketErrorCode; message?: string } };
export type SubscribeAck = { ok: true } | AckError;

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

export interface Hello {
  serverTime: number;
  userId: string | null;
}

export interface ServerToClientEvents {
  hello: (hello: Hello) => void;
  market: (snapshot: MarketSnapshot) => void;
  tick: (tick: Tick) => void;
  product: (product: ProductStatusEvent) => void;
  /** To the user's room when one of their orders opens or settles. */
  order: (order: Order) => void;
  /** To the user's room when their balances change. */
  balance: (summary: AccountSummary) => void;
  /** To the user's room when a system message arrives. */
  message: (message: { id: string; title: string }) => void;
  /**
   * To the sockets of a session the server has just ended, right before it disconnects them
   * (`io server disconnect`); their token is refused from then on.
   */
  sessionEnded: (ended: SessionEnded) => void;
}

/** The events the api sends to one user's sockets (through whichever gateway holds them). */
export type UserEventName = 'order' | 'balance' | 'message';

export interface ClientToServerEvents {
  subscribe: (channels: string[], ack: (answer: SubscribeAck) => void) => void;
  unsubscribe: (channels: string[], ack: (answer: SubscribeAck) => void) => void;
  time: (ack: (answer: { serverTime: number }) => void) => void;
}

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

/** The payload of `subscribe` and `unsubscribe`. */
export const channelsSchema = z.array(z.string().max(40)).min(1).max(socketLimits.maxChannels);
