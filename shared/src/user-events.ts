/**
 * User-event ids and what a client does with them (docs/API.md, "Missed events"). Every `order`,
 * `balance` and `message` event carries an id, `<ms>-<n>` like a Redis stream id, growing per
 * user. A reconnecting client sends the newest id it saw (`since`); the gateway replays what came
 * after it and says in `hello` whether that replay is complete.
 */

import type { Hello } from './socket';

/** `<ms>-<n>`, the shape of a Redis stream id (and of the embedded buffer's ids). */
const EVENT_ID = /^(\d{1,15})-(\d{1,10})$/;

export function isEventId(raw: unknown): raw is string {
  return typeof raw === 'string' && EVENT_ID.test(raw);
}

/** The id an encoded Socket.IO event packet ends with (its `{"id":…}` meta), else null. */
export function eventIdOfPacket(encoded: string): string | null {
  return PACKET_EVENT_ID.exec(encoded)?.[1] ?? null;
}
const PACKET_EVENT_ID = /\{"id":"(\d{1,15}-\d{1,10})"\}\]$/;

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`. */
export function compareEventIds(a: string, b: string): number {
  const [am = 0, an = 0] = a.split('-').map(Number);
  const [bm = 0, bn = 0] = b.split('-').map(Number);
  return am - bm || an - bn;
}

/** The id following `last` at time `now` (monotonic even when the clock steps back). */
export function nextEventId(last: string | null, now: number): string {
  if (last === null) return `${now}-0`;
  const [ms = 0, n = 0] = last.split('-').map(Number);
  return now > ms ? `${now}-0` : `${ms}-${n + 1}`;
}

/** How many ids a cursor remembers to drop repeats (a replay overlapping live events). */
const SEEN_MAX = 500;

/**
 * A client's memory of one session's user events: the newest id seen (sent as `since` on the next
 * connection) and the recent ids, so an event that comes twice (live while the replay is read,
 * then in the replay) is passed on once. A new token starts from nothing.
 */
export function createUserEventCursor() {
  let token: string | null = null;
  let newest: string | null = null;
  let seen = new Set<string>();
  /** A hello came before on this page: its state was loaded, and may be behind now. */
  let greeted = false;

  const forToken = (next: string) => {
    if (next === token) return;
    token = next;
    newest = null;
    seen = new Set();
  };
  const advance = (id: string) => {
    if (newest === null || compareEventIds(id, newest) > 0) newest = id;
  };

  return {
    /** The `since` to send with `token`'s connection: undefined when none of its events was seen. */
    since(of: string): string | undefined {
      forToken(of);
      return newest ?? undefined;
    },
    /** True the first time an event id is seen; events without an id are always passed on. */
    accept(id: string | undefined): boolean {
      if (id === undefined) return true;
      if (seen.has(id)) return false;
      seen.add(id);
      if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value as string);
      advance(id);
      return true;
    },
    /**
     * A connection's `hello`: true when the user's state must be read again, i.e. a signed-in
     * reconnection whose replay was not complete. The page's first connection never asks (its
     * state was just loaded). The newest buffered id becomes the point the next replay starts
     * from (after a gap the state read again covers what came before it).
     */
    hello(hello: Pick<Hello, 'userId' | 'replay' | 'lastEventId'>): boolean {
      const first = !greeted;
      greeted = true;
      if (hello.lastEventId) advance(hello.lastEventId);
      return !first && hello.userId !== null && hello.replay !== 'complete';
    },
  };
}
