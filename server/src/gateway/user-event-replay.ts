import type { SocketTicket } from '@shared/socket';
import { replayLimits, type ReplaySource, type UserEventReplay } from '../platform/user-events';
import type { Conn } from './socket-server';

/** An id older than any event: a catch-up from it reads a user's whole buffer. */
const EARLIEST = '0-0';

/** How many times a catch-up's read is asked again (after 0.1, 0.2, … 3.2 s). */
const CATCH_UP_READS = 6;

/** How many sockets a catch-up reads the buffers of at once. */
const CATCH_UP_PARALLEL = 64;

/** A replay that could not be read: the client reads its state again. */
export const unread: UserEventReplay = { events: [], replay: 'gap', lastEventId: null };

/**
 * The user events a signed-in socket missed: replayed at its hello, and caught up after this
 * gateway's subscription to user events was lost and is back.
 */
export function createCatchUp(read: ReplaySource) {
  /** Signed-in sockets past their hello (a catch-up is theirs; one being admitted has its own). */
  const greeted = new WeakSet<Conn>();
  /** Whether the subscription to user events is down now, and how many times it was lost. */
  let down = false;
  let losses = 0;
  /** Where each socket's catch-up starts: the newest event it had been sent when it was lost. */
  const marks = new WeakMap<Conn, string | null>();

  /**
   * A buffer read for a catch-up, asked again while it fails: the gateway's reader lost Redis
   * with its subscriber and may be reconnecting still (`unread` once it has failed for ~6 s).
   */
  const readPatiently = async (userId: string, since: string): Promise<UserEventReplay> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await read(userId, since);
      } catch {
        if (attempt === CATCH_UP_READS) return unread;
        await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      }
    }
  };

  /**
   * One socket's catch-up: what its user's buffer holds after `from`. Its buffer was empty at
   * its hello when that is null, so everything in it is new unless the buffer is full (it may
   * have been trimmed). A catch-up that cannot be complete (trimmed, expired, unreadable) ends
   * with a `hello` saying `gap`: the client reads its state again. Returns whether it was
   * complete.
   */
  const catchUpOne = async (conn: Conn, userId: string, from: string | null): Promise<boolean> => {
    const replay: UserEventReplay =
      from === null
        ? await readPatiently(userId, EARLIEST).then((r) =>
            r === unread
              ? r
              : { ...r, replay: r.events.length < replayLimits.perUser ? 'complete' : 'gap' },
          )
        : await readPatiently(userId, from);
    if (!conn.connected) return true;
    for (const e of replay.events) {
      conn.sendEvent(e.event, e.payload, { id: e.id });
      conn.sawEventId(e.id);
    }
    if (replay.replay === 'complete') return true;
    conn.sendEvent('hello', {
      serverTime: Date.now(),
      userId,
      replay: 'gap',
      lastEventId: replay.lastEventId,
    });
    return false;
  };

  return {
    /**
     * The user events the socket missed, read once it is in its user room (so an event is either
     * heard live or found in the buffer, possibly both: the client drops repeats by id), sent
     * before the `hello` that says whether they are all of them.
     */
    async replayTo(
      conn: Conn,
      userId: string,
      since: string | undefined,
      ticket: SocketTicket | undefined,
    ) {
      const lossesBefore = losses;
      const downBefore = down;
      const replay = await read(userId, since).catch(() => unread);
      if (!conn.connected) return;
      for (const e of replay.events) conn.sendEvent(e.event, e.payload, { id: e.id });
      conn.sawEventId(replay.lastEventId);
      conn.sendEvent('hello', {
        serverTime: Date.now(),
        userId,
        replay: replay.replay,
        lastEventId: replay.lastEventId,
        ...(ticket ? { ticket } : {}),
      });
      greeted.add(conn);
      // Read while the subscription was down, or across its loss: what it missed since is in the
      // buffer, after the newest event the read found.
      if (!(down || downBefore || losses !== lossesBefore)) return;
      if (down) marks.set(conn, replay.lastEventId);
      else await catchUpOne(conn, userId, replay.lastEventId);
    },
    /** See `subscriptionLost` of createAdmission. */
    subscriptionLost: (conns: Iterable<Conn>): void => {
      if (down) return;
      down = true;
      losses++;
      for (const c of conns)
        if (c.userId !== null && greeted.has(c) && !marks.has(c)) marks.set(c, c.lastEventId);
    },
    /** See `subscriptionBack` of createAdmission. */
    subscriptionBack: async (conns: Iterable<Conn>): Promise<{ sockets: number; gaps: number }> => {
      down = false;
      const due: [Conn, string | null][] = [];
      for (const c of conns)
        if (c.userId !== null && marks.has(c)) {
          due.push([c, marks.get(c) ?? null]);
          marks.delete(c);
        }
      let gaps = 0;
      for (let i = 0; i < due.length; i += CATCH_UP_PARALLEL) {
        const batch = due.slice(i, i + CATCH_UP_PARALLEL);
        const done = await Promise.all(batch.map(([c, from]) => catchUpOne(c, c.userId!, from)));
        gaps += done.filter((complete) => !complete).length;
      }
      return { sockets: due.length, gaps };
    },
  };
}

export type CatchUp = ReturnType<typeof createCatchUp>;
