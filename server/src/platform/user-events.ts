import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Emitter } from '@socket.io/redis-emitter';
import type { ServerToClientEvents, SessionEndReason, UserEventName } from '@shared/socket';
import { compareEventIds, nextEventId } from '@shared/user-events';
import type { Logger } from '@infra/logger';
import { everyMs, publishOnly } from './redis';

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
 * A stream entry saying events of the user were lost before it (they could not be stored): a
 * replay across it is a gap. Never sent to a socket.
 */
const LOST = 'lost';

/** A user event as its user's replay buffer holds it (or a LOST mark). */
export interface StoredUserEvent {
  id: string;
  event: UserEventName | typeof LOST;
  payload: unknown;
}

/** What a reconnecting socket is sent before its `hello` (docs/API.md, "Missed events"). */
export interface UserEventReplay {
  /** The buffered events after `since`, oldest first. */
  events: (StoredUserEvent & { event: UserEventName })[];
  /** `complete` when the buffer still holds `since` itself, so nothing after it is missing. */
  replay: 'complete' | 'gap';
  lastEventId: string | null;
}

/** Reads a user's events after `since` (none given: only the newest id). */
export type ReplaySource = (userId: string, since: string | undefined) => Promise<UserEventReplay>;

/** Events buffered per user, and how long a user's buffer outlives their last event. */
export const replayLimits = { perUser: 200, ttlSeconds: 3600, users: 10_000 } as const;

/** The Redis stream of one user's recent events (their ids are the events' ids). */
export const userEventsKey = (namespace: string, userId: number | string) =>
  `${namespace}:user-events:{${userId}}`;

/**
 * The replay of a buffer holding `held` (oldest first) after `since`: complete when the buffer
 * reaches back to `since` (holds it, or an event before it) with no LOST mark after it, so every
 * event after `since` is still there; else a gap (trimmed, expired, from before a restart, or
 * events that could not be stored). `since` itself may be gone while the buffer reaches back
 * across it: an event a failed-over Redis never replicated, heard live and lost from the stream.
 */
export function replayFrom(
  held: readonly StoredUserEvent[],
  since: string | undefined,
): UserEventReplay {
  const lastEventId = held.at(-1)?.id ?? null;
  if (since === undefined) return { events: [], replay: 'gap', lastEventId };
  const after = held.filter((e) => compareEventIds(e.id, since) > 0);
  const events = after.filter(
    (e): e is StoredUserEvent & { event: UserEventName } => e.event !== LOST,
  );
  const reachesBack = held.some((e) => compareEventIds(e.id, since) <= 0);
  const complete = reachesBack && events.length === after.length;
  return { events, replay: complete ? 'complete' : 'gap', lastEventId };
}

/**
 * User events through Redis to every gateway. Each is first appended to its user's capped stream
 * (the replay buffer a reconnecting socket is sent from, gateway/admission.ts), then published
 * with the id the stream gave it. With Redis away the event is dropped, as a publish was before
 * (the caller never waits or fails), and its user is remembered: once Redis takes writes again a
 * LOST mark goes into that user's stream, so a replay across it says `gap`.
 *
 * Ending sessions publishes the notice and then the disconnect on the same connection, so each
 * gateway's adapter hears them in that order; the notice is written to the sockets before
 * Engine.IO closes them.
 */
export function redisUserEvents(
  redis: Pick<Redis, 'publish' | 'multi' | 'on'>,
  namespace: string,
  log: Logger,
): UserEvents {
  // Untyped: an event goes out with its id after the payload (ServerToClientEvents' `meta`).
  const emitter = new Emitter(publishOnly(redis, log), { key: socketIoKey(namespace) });
  const warn = everyMs(10_000);
  /** Users whose events could not be stored, to be marked LOST (bounded: a long outage's). */
  const lost = new Set<string>();
  /** Appends to the user's stream; resolves to the entry's id, rejects when Redis refused. */
  const append = async (
    userId: number | string,
    event: StoredUserEvent['event'],
    payload: unknown,
  ) => {
    const key = userEventsKey(namespace, userId);
    const [added] =
      (await redis
        .multi()
        .xadd(
          key,
          'MAXLEN',
          '~',
          replayLimits.perUser,
          '*',
          'e',
          event,
          'p',
          JSON.stringify(payload),
        )
        .expire(key, replayLimits.ttlSeconds)
        .exec()) ?? [];
    if (!added || added[0] || typeof added[1] !== 'string') throw added?.[0] ?? new Error('no id');
    return added[1];
  };
  const markLost = () => {
    for (const user of lost)
      append(user, LOST, null).then(
        () => lost.delete(user),
        () => undefined, // still away: marked at the next chance
      );
  };
  redis.on('ready', markLost);
  return {
    emit(userId, event, ...args) {
      append(userId, event, args[0]).then(
        (id) => {
          emitter.to(userRoom(userId)).emit(event, args[0], { id });
          if (lost.size) markLost();
        },
        (err: unknown) => {
          if (lost.size < replayLimits.users * 10) lost.add(String(userId));
          if (warn()) log.warn({ err: (err as Error).message }, 'user event not sent (redis)');
        },
      );
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

/** The replay buffer of a gateway's Redis: the user's stream after `since`. */
export function redisReplay(
  redis: Pick<Redis, 'xrange' | 'xrevrange'>,
  namespace: string,
): ReplaySource {
  const toEvent = ([id, fields]: [string, string[]]): StoredUserEvent => ({
    id,
    event: fields[1] as StoredUserEvent['event'],
    payload: JSON.parse(fields[3] ?? 'null') as unknown,
  });
  return async (userId, since) => {
    const key = userEventsKey(namespace, userId);
    if (since === undefined) {
      const newest = await redis.xrevrange(key, '+', '-', 'COUNT', 1);
      return { events: [], replay: 'gap', lastEventId: newest[0]?.[0] ?? null };
    }
    // From `since` itself, and the newest entry at or before it: whether the stream still
    // reaches back that far is what tells a gap. An approximately trimmed stream holds at most a
    // few hundred entries more than perUser.
    const [before, held] = await Promise.all([
      redis.xrevrange(key, since, '-', 'COUNT', 1),
      redis.xrange(key, `(${since}`, '+', 'COUNT', replayLimits.perUser * 5),
    ]);
    return replayFrom([...before, ...held].map(toEvent), since);
  };
}

/**
 * The embedded replay buffer: each user's last `perUser` events in memory, for the `users` who
 * had events most recently (a user whose buffer is dropped replays as a gap).
 */
export function userEventRing(limits: { users: number; perUser: number } = replayLimits) {
  const buffers = new Map<string, StoredUserEvent[]>();
  return {
    /** Stores an event and returns its id. */
    append(userId: number | string, event: UserEventName, payload: unknown): string {
      const user = String(userId);
      const held = buffers.get(user) ?? [];
      // A dropped buffer's ids are older than now's: the next ones still grow.
      const id = nextEventId(held.at(-1)?.id ?? null, Date.now());
      buffers.delete(user); // re-inserted last: the Map's order is the users' recency
      held.push({ id, event, payload });
      if (held.length > limits.perUser) held.shift();
      buffers.set(user, held);
      if (buffers.size > limits.users) buffers.delete(buffers.keys().next().value as string);
      return id;
    },
    read: ((userId, since) =>
      Promise.resolve(replayFrom(buffers.get(String(userId)) ?? [], since))) satisfies ReplaySource,
  };
}

/**
 * User events for the embedded process, bound to the gateway after it is created; the last
 * ones of each user are held in memory for replay (`replay`, given to the gateway).
 */
export function lateUserEvents(
  ring = userEventRing(),
): UserEvents & { bind(io: UserEventsServer): void; replay: ReplaySource } {
  let io: UserEventsServer | null = null;
  return {
    bind(target) {
      io = target;
    },
    replay: ring.read,
    emit(userId, event, ...args) {
      const id = ring.append(userId, event, args[0]);
      io?.to(userRoom(userId)).emit(event, args[0], { id });
    },
    endSessions(tokenHashes, reason) {
      if (!io || !tokenHashes.length) return;
      const rooms = tokenHashes.map(sessionRoom);
      io.to(rooms).emit('sessionEnded', { reason });
      io.in(rooms).disconnectSockets(true);
    },
  };
}
