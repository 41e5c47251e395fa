import type { IncomingMessage } from 'node:http';
import { sessionRoom, sessionTokenHash, userRoom } from '../platform/user-events';
import { addressKey, clientAddress, compileTrust, untrustedForwarding } from './client-address';
import { createConnectionThrottle } from './connection-throttle';
import type { GatewayDeps } from './gateway';
import type { Conn, SocketServerHooks } from './socket-server';

/** How long a refused connection may stay open to hear why (the CONNECT_ERROR) before it is closed. */
export const REFUSED_GRACE_MS = 2_000;

/** The CONNECT's token: null when none was given, else whatever the client sent. */
function tokenOf(auth: Record<string, unknown>): unknown {
  const token = auth.token;
  return token === undefined || token === null || token === '' ? null : token;
}

/**
 * Who may connect, and as whom. First the connections per client address (RATE_LIMITED), then
 * the session token (UNAUTHENTICATED: its session is over; UNAVAILABLE: it cannot be checked
 * now); `welcome` puts an admitted socket in its rooms and says hello.
 *
 * Nothing of the upgrade request is kept: its address is read here, at the upgrade, and the
 * token only until the socket is in its rooms.
 */
export function createAdmission(
  deps: Pick<GatewayDeps, 'log' | 'metrics' | 'authenticate' | 'connectionLimits' | 'trustProxy'>,
) {
  // Connections per address, counted per Engine.IO connection (what holds a socket and memory,
  // whether or not it ever joins the namespace) and answered at its CONNECT with RATE_LIMITED.
  const throttle = createConnectionThrottle(deps.connectionLimits);
  const sweeper = setInterval(() => throttle.sweep(), 60_000).unref();
  const trust = compileTrust(deps.trustProxy ?? 'loopback');
  let warnedForwarding = false;
  /** Tokens of sockets being admitted (a WeakMap: nothing stays once the socket is gone). */
  const tokens = new WeakMap<Conn, string>();

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

  const admit: SocketServerHooks['admit'] = async (conn, auth) => {
    conn.userId = null;
    const token = tokenOf(auth);
    if (token === null) return null;
    if (typeof token !== 'string' || token.length > 200) return 'UNAUTHENTICATED';
    if (!deps.authenticate) return null; // nothing to check it with: anonymous market data
    let userId: string | null;
    try {
      userId = await deps.authenticate(token);
    } catch {
      return 'UNAVAILABLE';
    }
    if (!userId) return 'UNAUTHENTICATED';
    conn.userId = userId;
    tokens.set(conn, token);
    return null;
  };

  /**
   * A signed-in socket joins its session room first, then its session is checked again, and only
   * then does it join its user room. A logout or password change committed while the socket was
   * being admitted (after the first check) is thus either seen by the second check or sent to the
   * session room the socket is already in: a revoked session never keeps a socket.
   */
  const admitUser = (
    conn: Conn,
    token: string,
    userId: string,
    authenticate: (token: string) => Promise<string | null>,
  ) => {
    conn.join(sessionRoom(sessionTokenHash(token)));
    authenticate(token).then(
      (again) => {
        if (!conn.connected) return;
        // Over meanwhile (or not checkable now): the client connects again and hears which.
        if (again !== userId) return void conn.disconnect(true);
        conn.join(userRoom(userId));
        conn.sendEvent('hello', { serverTime: Date.now(), userId });
      },
      () => {
        if (conn.connected) conn.disconnect(true);
      },
    );
  };

  return {
    upgrade,
    admit,
    /** Rooms and hello for a socket that has just connected. */
    welcome(conn: Conn): void {
      const token = tokens.get(conn);
      tokens.delete(conn);
      if (conn.userId && token !== undefined && deps.authenticate)
        admitUser(conn, token, conn.userId, deps.authenticate);
      else conn.sendEvent('hello', { serverTime: Date.now(), userId: null });
    },
    stop(): void {
      clearInterval(sweeper);
    },
  };
}
