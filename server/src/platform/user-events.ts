import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Emitter } from '@socket.io/redis-emitter';
import type { ServerToClientEvents, SessionEndReason, UserEventName } from '@shared/socket';

/**
 * Sends events to the sockets of one user, or ends the sockets of given sessions, on whichever
 * gateway they are. Embedded: the local Socket.IO server. Scaled: @socket.io/redis-emitter, heard
 * by the gateways' redis adapter. Fire-and-forget: a user with no socket open simply gets nothing.
 */
export interface UserEvents {
  emit<E extends UserEventName>(
    userId: number | string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
  /**
   * Tells the sockets of these sessions (by token hash) why they end, then disconnects them.
   * Called after the revocation is committed: a socket of such a session that connects later is
   * refused, and one that was being admitted meanwhile is caught by the gateway's second check.
   */
  endSessions(tokenHashes: readonly string[], reason: SessionEndReason): void;
}

/** The room of every authenticated socket of a user. */
export const userRoom = (userId: number | string): string => `user:${userId}`;

/** The room of the sockets of one session, named by the session's token hash. */
export const sessionRoom = (tokenHash: string): string => `session:${tokenHash}`;

/**
 * The hash sessions are stored by (SHA-256 of the token, hex), so a gateway, which has no
 * database, can name a socket's session room from the token alone.
 */
export const sessionTokenHash = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/** For tests and processes with no sockets: records what was sent. */
export function recordingUserEvents(): UserEvents & {
  sent: { userId: string; event: string; payload: unknown }[];
  ended: { tokenHashes: string[]; reason: SessionEndReason }[];
} {
  const sent: { userId: string; event: string; payload: unknown }[] = [];
  const ended: { tokenHashes: string[]; reason: SessionEndReason }[] = [];
  return {
    sent,
    ended,
    emit(userId, event, ...args) {
      sent.push({ userId: String(userId), event, payload: args[0] });
    },
    endSessions(tokenHashes, reason) {
      if (tokenHashes.length) ended.push({ tokenHashes: [...tokenHashes], reason });
    },
  };
}

/** The Redis key prefix of Socket.IO's adapter and emitter in a deployment's namespace. */
export const socketIoKey = (namespace: string) => `${namespace}:socket.io`;

/**
 * User events through Redis to every gateway. Ending sessions publishes the notice and then the
 * disconnect on the same connection, so each gateway's adapter hears them in that order; the
 * notice is written to the sockets before Engine.IO closes them.
 */
export function redisUserEvents(redis: Redis, namespace: string): UserEvents {
  const emitter = new Emitter<ServerToClientEvents>(redis, { key: socketIoKey(namespace) });
  return {
    emit(userId, event, ...args) {
      emitter.to(userRoom(userId)).emit(event, ...args);
    },
    endSessions(tokenHashes, reason) {
      if (!tokenHashes.length) return;
      const rooms = tokenHashes.map(sessionRoom);
      emitter.to(rooms).emit('sessionEnded', { reason });
      emitter.in(rooms).disconnectSockets(true);
    },
  };
}

/** What user events need of a gateway's server: its user and session rooms. */
export interface UserEventsServer {
  to(room: string | string[]): { emit(event: string, ...args: unknown[]): unknown };
  in(room: string | string[]): { disconnectSockets(close?: boolean): unknown };
}

/** User events for the embedded process, bound to the gateway after it is created. */
export function lateUserEvents(): UserEvents & { bind(io: UserEventsServer): void } {
  let io: UserEventsServer | null = null;
  return {
    bind(target) {
      io = target;
    },
    emit(userId, event, ...args) {
      io?.to(userRoom(userId)).emit(event, ...args);
    },
    endSessions(tokenHashes, reason) {
      if (!io || !tokenHashes.length) return;
      const rooms = tokenHashes.map(sessionRoom);
      io.to(rooms).emit('sessionEnded', { reason });
      io.in(rooms).disconnectSockets(true);
    },
  };
}
