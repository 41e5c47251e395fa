import type { SessionEndReason } from '@shared/socket';

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
  /** Pause before connecting again when socket.io will not by itself. */
  retryMs: number;
  /** Pause after RATE_LIMITED: longer, and spread, so clients behind one address do not return together. */
  rateLimitedMs: () => number;
  schedule?: (run: () => void, ms: number) => void;
}

/**
 * The session token a socket carries, and what its connection's life says about that session.
 * The server ends a session by saying so (`sessionEnded`) and then disconnecting the socket, or
 * by refusing its token (connect_error UNAUTHENTICATED): either ends it here, and the socket goes
 * on anonymously for market data. Nothing else does: a lost network or a restarting server is
 * retried by socket.io with the token, and UNAVAILABLE (the token could not be checked just now)
 * or RATE_LIMITED are retried here with it.
 */
export function createSessionLink(o: SessionLinkOptions) {
  const schedule = o.schedule ?? ((run, ms) => void setTimeout(run, ms));
  let token: string | null = null;
  /** The token sent with the connection attempt in flight, or of the connection that is up. */
  let attempt: string | null = null;
  /** The session the server just ended: the disconnect that follows is no reason to retry it. */
  let ended: string | null = null;

  const end = (of: string, reason: SessionEndNotice) => {
    if (token === of) token = null;
    o.onEnded({ token: of, reason });
  };

  return {
    get token(): string | null {
      return token;
    },
    /** A new token (login, logout); the caller reconnects so the server sees it. */
    setToken(next: string | null): void {
      token = next;
    },
    /** The handshake's `auth`, read on every (re)connection. */
    auth(): { token?: string } {
      attempt = token;
      return token ? { token } : {};
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
      schedule(o.connect, afterEnd ? 0 : o.retryMs);
    },
    connectError(message: string, socketWillRetry: boolean): void {
      if (socketWillRetry) return; // a transport error: socket.io retries with backoff
      if (message === 'UNAUTHENTICATED' && attempt) end(attempt, 'ended');
      schedule(o.connect, message === 'RATE_LIMITED' ? o.rateLimitedMs() : o.retryMs);
    },
  };
}
