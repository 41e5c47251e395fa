import type { IncomingMessage } from 'node:http';
import { isEventId } from '@shared/user-events';
import { sessionRoom, sessionTokenHash, userRoom } from '../platform/user-events';
import { addressKey, clientAddress, compileTrust, untrustedForwarding } from './client-address';
import { createConnectionThrottle } from './connection-throttle';
import type { GatewayDeps } from './gateway';
import type { TicketClaims } from './socket-ticket';
import type { Conn, SocketServerHooks } from './socket-server';
import { createCatchUp, unread, type CatchUp } from './user-event-replay';

/** How long a refused connection may stay open to hear why (the CONNECT_ERROR) before it is closed. */
export const REFUSED_GRACE_MS = 2_000;

/** The CONNECT's token: null when none was given, else whatever the client sent. */
function tokenOf(auth: Record<string, unknown>): unknown {
  const token = auth.token;
  return token === undefined || token === null || token === '' ? null : token;
}

/** How a signed-in socket was admitted, kept until it is in its rooms. */
interface Admitted {
  token: string;
  /** The session's token hash when a ticket vouched for it (no api call), else null. */
  ticketOf: string | null;
  /** When the api last vouched for the session: now for a token, the ticket's for a ticket. */
  checkedAt: number;
}

/** The CONNECT's `since` (the last user event the client saw), when it is a well-formed id. */
function sinceOf(auth: Record<string, unknown>): string | undefined {
  return isEventId(auth.since) ? auth.since : undefined;
}

/** The socket tickets of the gateway, or null when they are off (GatewayDeps.tickets). */
type Tickets = NonNullable<GatewayDeps['tickets']> | null;

/** A signed-in socket's session and ticket expiry, for renewals. */
interface HeldSession {
  tokenHash: string;
  expiresAt: number;
  checkedAt: number;
}

/**
 * What the steps of an admission hand each other about a socket (WeakMaps: nothing stays once
 * the socket is gone): `admit` fills the first two, `welcome` reads them and fills the third,
 * `renewTickets` reads it.
 */
interface AdmissionState {
  /** Sockets being admitted. */
  admitting: WeakMap<Conn, Admitted>;
  /** The `since` of sockets being admitted. */
  sinces: WeakMap<Conn, string>;
  /** The session and ticket expiry of each signed-in socket. */
  sessions: WeakMap<Conn, HeldSession>;
}

/**
 * The first step, at the upgrade: connections per client address, counted per Engine.IO
 * connection (what holds a socket and memory, whether or not it ever joins the namespace) and
 * answered at its CONNECT with RATE_LIMITED.
 */
function createAddressGate(
  deps: Pick<GatewayDeps, 'log' | 'metrics' | 'connectionLimits' | 'trustProxy'>,
) {
  const throttle = createConnectionThrottle(deps.connectionLimits);
  const sweeper = setInterval(() => throttle.sweep(), 60_000).unref();
  const trust = compileTrust(deps.trustProxy ?? 'loopback');
  let warnedForwarding = false;

  const upgrade: SocketServerHooks['upgrade'] = (req: IncomingMessage) => {
    if (!warnedForwarding && untrustedForwarding(req, trust)) {
      warnedForwarding = true;
      deps.log.warn(
        { peer: req.socket.remoteAddress },
        'X-Forwarded-For from a peer TRUST_PROXY does not trust: if it is your proxy, every client behind it shares one address and its socket limits',
      );
    }
    const verdict = throttle.admit(addressKey(clientAddress(req, trust)));
    if (verdict.ok) return verdict;
    deps.metrics?.connectionsRefused.inc({ reason: verdict.reason });
    return { ok: false, refused: 'RATE_LIMITED' };
  };
  return { upgrade, stop: () => clearInterval(sweeper) };
}

/**
 * The ticket's verdict: the user it vouches for, a refusal, or null when it vouches for nothing
 * (absent, expired, forged, of another token) and the token must be checked instead.
 */
async function byTicket(
  tickets: Tickets,
  token: string,
  raw: unknown,
): Promise<TicketClaims | 'UNAUTHENTICATED' | 'UNAVAILABLE' | null> {
  if (!tickets || typeof raw !== 'string') return null;
  const claims = tickets.signer.verify(raw);
  if (!claims || claims.tokenHash !== sessionTokenHash(token)) return null;
  try {
    if (await tickets.revoked.isRevoked(claims.tokenHash)) return 'UNAUTHENTICATED';
  } catch {
    return 'UNAVAILABLE'; // never admitted unchecked; the client may try its token instead
  }
  return claims;
}

/** The second step, at the CONNECT: the session, by its ticket or else by its token. */
function sessionCheck(
  authenticate: GatewayDeps['authenticate'],
  tickets: Tickets,
  state: AdmissionState,
): SocketServerHooks['admit'] {
  return async (conn, auth) => {
    conn.userId = null;
    const token = tokenOf(auth);
    if (token === null) return null;
    if (typeof token !== 'string' || token.length > 200) return 'UNAUTHENTICATED';
    if (!authenticate) return null; // nothing to check it with: anonymous market data
    const since = sinceOf(auth);
    if (since) state.sinces.set(conn, since);
    const ticket = await byTicket(tickets, token, auth.ticket);
    if (typeof ticket === 'string') return ticket;
    if (ticket) {
      conn.userId = ticket.userId;
      state.admitting.set(conn, { token, ticketOf: ticket.tokenHash, checkedAt: ticket.checkedAt });
      return null;
    }
    let userId: string | null;
    try {
      userId = await authenticate(token);
    } catch {
      return 'UNAVAILABLE';
    }
    if (!userId) return 'UNAUTHENTICATED';
    conn.userId = userId;
    state.admitting.set(conn, { token, ticketOf: null, checkedAt: Date.now() });
    return null;
  };
}

/**
 * The session's second check, true while it is live: the revoked sessions for a socket admitted
 * by ticket, the api for one admitted by token.
 */
const stillLive = (
  tickets: Tickets,
  admitted: Admitted,
  userId: string,
  authenticate: (token: string) => Promise<string | null>,
): Promise<boolean> =>
  admitted.ticketOf !== null && tickets
    ? tickets.revoked.isRevoked(admitted.ticketOf).then((revoked) => !revoked)
    : authenticate(admitted.token).then((again) => again === userId);

/** What the last step, `welcome`, works with. */
interface WelcomeContext {
  metrics: GatewayDeps['metrics'];
  tickets: Tickets;
  state: AdmissionState;
  catchUp: CatchUp;
}

/**
 * A signed-in socket joins its session room first, then its session is checked again, and only
 * then does it join its user room. A logout or password change committed while the socket was
 * being admitted (after the first check) is thus either seen by the second check or sent to the
 * session room the socket is already in: a revoked session never keeps a socket. The api
 * records a revocation before it tells the session rooms, so a ticket's second check (the
 * revoked sessions) closes the same gap.
 */
function admitUser(
  { metrics, tickets, state, catchUp }: WelcomeContext,
  conn: Conn,
  admitted: Admitted,
  userId: string,
  authenticate: (token: string) => Promise<string | null>,
  since: string | undefined,
) {
  const tokenHash = admitted.ticketOf ?? sessionTokenHash(admitted.token);
  conn.join(sessionRoom(tokenHash));
  stillLive(tickets, admitted, userId, authenticate).then(
    (live) => {
      if (!conn.connected) return;
      // Over meanwhile (or not checkable now): the client connects again and hears which.
      if (!live) return void conn.disconnect(true);
      conn.join(userRoom(userId));
      metrics?.admissions.inc({ by: admitted.ticketOf !== null ? 'ticket' : 'token' });
      const ticket = tickets?.signer.issue(userId, tokenHash, admitted.checkedAt) ?? undefined;
      if (ticket)
        state.sessions.set(conn, {
          tokenHash,
          expiresAt: ticket.expiresAt,
          checkedAt: admitted.checkedAt,
        });
      void catchUp.replayTo(conn, userId, since, ticket);
    },
    () => {
      if (conn.connected) conn.disconnect(true);
    },
  );
}

/**
 * A fresh ticket (`ticket` event) for each signed-in socket whose ticket is past half its life:
 * one pass over the sockets from one interval, not a timer per socket. A socket of a revoked
 * session is gone from `conns` (its session room disconnected it).
 */
function renewTickets(
  tickets: Tickets,
  sessions: WeakMap<Conn, HeldSession>,
  conns: Iterable<Conn>,
): void {
  if (!tickets) return;
  const renewBefore = Date.now() + tickets.signer.ttlMs / 2;
  for (const conn of conns) {
    const held = sessions.get(conn);
    if (!held || !conn.userId || held.expiresAt > renewBefore) continue;
    const ticket = tickets.signer.issue(conn.userId, held.tokenHash, held.checkedAt);
    // The session's last check is too old to vouch for: no more tickets; the next connection
    // shows its token to the api.
    if (!ticket) {
      sessions.delete(conn);
      continue;
    }
    held.expiresAt = ticket.expiresAt;
    conn.sendEvent('ticket', ticket);
  }
}

/**
 * Who may connect, and as whom. First the connections per client address (RATE_LIMITED), then
 * the session: by its ticket when it brings a valid one for its token (checked here, against the
 * revoked sessions), else by its token (asked of the api). UNAUTHENTICATED: its session is over;
 * UNAVAILABLE: it cannot be checked now. `welcome` puts an admitted socket in its rooms and says
 * hello, with a fresh ticket when tickets are on.
 *
 * Nothing of the upgrade request is kept: its address is read here, at the upgrade, and the
 * token only until the socket is in its rooms.
 */
export function createAdmission(
  deps: Pick<
    GatewayDeps,
    'log' | 'metrics' | 'authenticate' | 'connectionLimits' | 'trustProxy' | 'tickets' | 'replay'
  >,
) {
  const addressGate = createAddressGate(deps);
  const tickets = deps.tickets ?? null;
  const state: AdmissionState = {
    admitting: new WeakMap(),
    sinces: new WeakMap(),
    sessions: new WeakMap(),
  };
  const catchUp = createCatchUp(deps.replay ?? (() => Promise.resolve(unread)));
  const welcomeContext: WelcomeContext = { metrics: deps.metrics, tickets, state, catchUp };

  return {
    upgrade: addressGate.upgrade,
    admit: sessionCheck(deps.authenticate, tickets, state),
    /**
     * This gateway's subscription to user events is down (a Redis failover, a dropped
     * connection): its sockets may miss events published meanwhile without ever disconnecting,
     * so no reconnection would replay them. Each signed-in socket's newest event is marked now,
     * where its catch-up will start.
     */
    subscriptionLost: catchUp.subscriptionLost,
    /**
     * The subscription is back: each marked socket is sent what its user's buffer holds after
     * its mark (catchUpOne). Resolves to how many were caught up, and how many with a gap.
     */
    subscriptionBack: catchUp.subscriptionBack,
    /** Rooms and hello for a socket that has just connected. */
    welcome(conn: Conn): void {
      const admitted = state.admitting.get(conn);
      const since = state.sinces.get(conn);
      state.admitting.delete(conn);
      state.sinces.delete(conn);
      if (conn.userId && admitted !== undefined && deps.authenticate)
        admitUser(welcomeContext, conn, admitted, conn.userId, deps.authenticate, since);
      else conn.sendEvent('hello', { serverTime: Date.now(), userId: null });
    },
    /** See `renewTickets`. */
    renewTickets: (conns: Iterable<Conn>): void => renewTickets(tickets, state.sessions, conns),
    stop(): void {
      addressGate.stop();
    },
  };
}
