import { sessionRoom, sessionTokenHash, userRoom } from '../platform/user-events';
import { addressKey, clientAddress, compileTrust, untrustedForwarding } from './client-address';
import { createConnectionThrottle } from './connection-throttle';
import type { GatewayDeps, GatewayServer, GatewaySocket } from './gateway';

/** How long a refused connection may stay open to hear why (the CONNECT_ERROR) before it is closed. */
const REFUSED_GRACE_MS = 2_000;

/** The handshake's token: null when none was given, else whatever the client sent. */
function tokenOf(socket: GatewaySocket): unknown {
  const token: unknown = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  return token === undefined || token === null || token === '' ? null : token;
}

/**
 * Who may connect, and as whom. First the connections per client address (RATE_LIMITED), then
 * the session token (UNAUTHENTICATED: its session is over; UNAVAILABLE: it cannot be checked
 * now); `welcome` puts an admitted socket in its rooms and says hello.
 */
export function createAdmission(
  io: GatewayServer,
  deps: Pick<GatewayDeps, 'log' | 'metrics' | 'authenticate' | 'connectionLimits' | 'trustProxy'>,
) {
  // Connections per address, counted per Engine.IO connection (what holds a socket and memory,
  // whether or not it ever joins a namespace) and answered at its CONNECT with RATE_LIMITED.
  const throttle = createConnectionThrottle(deps.connectionLimits);
  const sweeper = setInterval(() => throttle.sweep(), 60_000).unref();
  const trust = compileTrust(deps.trustProxy ?? 'loopback');
  const refused = new WeakSet<object>();
  let warnedForwarding = false;
  io.engine.on('connection', (conn: GatewaySocket['conn']) => {
    const req = conn.request;
    if (!warnedForwarding && untrustedForwarding(req, trust)) {
      warnedForwarding = true;
      deps.log.warn(
        { peer: req.socket.remoteAddress },
        'X-Forwarded-For from a peer TRUST_PROXY does not trust: if it is your proxy, every client behind it shares one address and its socket limits',
      );
    }
    const verdict = throttle.admit(addressKey(clientAddress(req, trust)));
    if (verdict.ok) {
      conn.once('close', verdict.release);
      return;
    }
    refused.add(conn);
    deps.metrics?.connectionsRefused.inc({ reason: verdict.reason });
    setTimeout(() => conn.close(), REFUSED_GRACE_MS).unref();
  });

  io.use((socket, next) => {
    socket.data.userId = null;
    if (refused.has(socket.conn)) {
      next(new Error('RATE_LIMITED'));
      // After the CONNECT_ERROR is queued (next() sends it on the next tick); Engine.IO flushes
      // it before closing.
      setImmediate(() => socket.conn.close());
      return;
    }
    const token = tokenOf(socket);
    if (token === null) return next();
    if (typeof token !== 'string' || token.length > 200) return next(new Error('UNAUTHENTICATED'));
    if (!deps.authenticate) return next(); // nothing to check it with: anonymous market data
    deps.authenticate(token).then(
      (userId) => {
        if (!userId) return next(new Error('UNAUTHENTICATED'));
        socket.data.userId = userId;
        next();
      },
      () => next(new Error('UNAVAILABLE')),
    );
  });

  /**
   * A signed-in socket joins its session room first, then its session is checked again, and only
   * then does it join its user room. A logout or password change committed while the socket was
   * being admitted (after the first check) is thus either seen by the second check or sent to the
   * session room the socket is already in: a revoked session never keeps a socket.
   */
  const admitUser = (
    socket: GatewaySocket,
    token: string,
    userId: string,
    authenticate: (token: string) => Promise<string | null>,
  ) => {
    void socket.join(sessionRoom(sessionTokenHash(token)));
    authenticate(token).then(
      (again) => {
        if (!socket.connected) return;
        // Over meanwhile (or not checkable now): the client connects again and hears which.
        if (again !== userId) return void socket.disconnect(true);
        void socket.join(userRoom(userId));
        socket.emit('hello', { serverTime: Date.now(), userId });
      },
      () => {
        if (socket.connected) socket.disconnect(true);
      },
    );
  };

  return {
    /** Rooms and hello for a socket that has just connected. */
    welcome(socket: GatewaySocket): void {
      const token = tokenOf(socket);
      if (socket.data.userId && typeof token === 'string' && deps.authenticate)
        admitUser(socket, token, socket.data.userId, deps.authenticate);
      else socket.emit('hello', { serverTime: Date.now(), userId: null });
    },
    stop(): void {
      clearInterval(sweeper);
    },
  };
}
