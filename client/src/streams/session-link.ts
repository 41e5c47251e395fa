import type { SessionEndReason, SocketTicket } from '@shared/socket';

/** Why a session ended under the user: the server's reason, or `ended` when it only refused the token. */
export type SessionEndNotice = SessionEndReason | 'ended';

export interface SessionEnd {
  /** The token of the session that ended (the app may hold another by now). */
  token: string;
  reason: SessionEndNotice;
}

export interface SessionLinkOptions {
  /** Connects the socket again, unless it is connecting already. */
  connect: () => void;
  onEnded: (end: SessionEnd) => void;
  /**
   * Pause before connecting again when socket.io will not by itself, drawn evenly from this
   * range: after a gateway drains or dies, its sockets come back spread out, not as one storm.
   */
  retryMs: { min: number; max: number };
  /** Pause after RATE_LIMITED: longer, and spread, so clients behind one address do not return together. */
  rateLimitedMs: () => number;
  /** The last user event seen with this token, sent so the server replays what came after. */
  since?: (token: string) => string | undefined;
  schedule?: (run: () => void, ms: number) => void;
  /** [0, 1), for the retry's spread (tests pass their own). */
  random?: () => number;
  /** The local clock, to tell whether a ticket has expired (tests pass their own). */
  now?: () => number;
}

/** The handshake's `auth`: an object, so more fields can join it. */
export interface SocketAuth {
  token?: string;
  ticket?: string;
  /** The last user event seen with this token: the gateway replays what came after it. */
  since?: string;
}

/**
 * The session token a socket carries, and what its connection's life says about that session.
 * The server ends a session by saying so (`sessionEnded`) and then disconnecting the socket, or
 * by refusing its token (connect_error UNAUTHENTICATED): either ends it here, and the socket goes
 * on anonymously for market data. Nothing else does: a lost network or a restarting server is
 * retried by socket.io with the token, and UNAVAILABLE (the token could not be checked just now)
 * or RATE_LIMITED are retried here with it.
 *
 * It also keeps, in memory only, the socket ticket the gateway last gave this token's connection
 * and sends it with the token while it is unexpired: the next gateway admits the socket by it
 * without asking the api. A new token, an ended session, or a gateway that could not check the
 * ticket (UNAVAILABLE) drops it; the token alone is then checked, as without tickets.
 */
export function createSessionLink(o: SessionLinkOptions) {
  const schedule = o.schedule ?? ((run, ms) => void setTimeout(run, ms));
  const random = o.random ?? Math.random;
  const now = o.now ?? Date.now;
  const retryMs = () => o.retryMs.min + random() * (o.retryMs.max - o.retryMs.min);
  let token: string | null = null;
  /** The last ticket, and the token whose connection it was given to. */
  let ticket: (SocketTicket & { token: string }) | null = null;
  /** The token sent with the connection attempt in flight, or of the connection that is up. */
  let attempt: string | null = null;
  /** The session the server just ended: the disconnect that follows is no reason to retry it. */
  let ended: string | null = null;

  const end = (of: string, reason: SessionEndNotice) => {
    if (token === of) token = null;
    if (ticket?.token === of) ticket = null;
    o.onEnded({ token: of, reason });
  };

  return {
    get token(): string | null {
      return token;
    },
    /** A new token (login, logout); the caller reconnects so the server sees it. */
    setToken(next: string | null): void {
      if (next !== token) ticket = null;
      token = next;
    },
    /** The handshake's `auth`, read on every (re)connection. */
    auth(): SocketAuth {
      attempt = token;
      if (!token) return {};
      const since = o.since?.(token);
      const held = ticket?.token === token && ticket.expiresAt > now() ? ticket.value : null;
      return { token, ...(held ? { ticket: held } : {}), ...(since ? { since } : {}) };
    },
    /** A ticket from the gateway (in `hello` or renewed), for the connection that is up. */
    ticketReceived(fresh: SocketTicket): void {
      if (attempt && attempt === token)
        ticket = { value: fresh.value, expiresAt: fresh.expiresAt, token: attempt };
    },
    sessionEnded(reason: SessionEndReason): void {
      if (!attempt) return;
      ended = attempt;
      end(attempt, reason);
    },
    disconnected(reason: string): void {
      // Any other reason (a lost network, a server going down) socket.io retries by itself.
      if (reason !== 'io server disconnect') return;
      const afterEnd = ended !== null && ended === attempt;
      ended = null;
      // After an end: back at once, anonymously. A kick without one (the notice lost, or a
      // check the gateway could not make): with the token, whose answer tells which it was.
      schedule(o.connect, afterEnd ? 0 : retryMs());
    },
    connectError(message: string, socketWillRetry: boolean): void {
      if (socketWillRetry) return; // a transport error: socket.io retries with backoff
      if (message === 'UNAUTHENTICATED' && attempt) end(attempt, 'ended');
      // Its ticket could not be checked: the next attempt brings the token alone.
      if (message === 'UNAVAILABLE') ticket = null;
      schedule(o.connect, message === 'RATE_LIMITED' ? o.rateLimitedMs() : retryMs());
    },
  };
}
