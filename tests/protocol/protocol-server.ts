import http from 'node:http';
import { EngineConn, EngineServer } from '@server/gateway/engine';
import { SocketServer, type Conn } from '@server/gateway/socket-server';

/**
 * The servers the official protocol suites expect, built on the gateway's own protocol code, so
 * what the suites test is what the gateway runs. Both as their READMEs configure them: a ping
 * every 300 ms, a 200 ms timeout, 1 MB payloads.
 */
/** socket.io-protocol's `auth` packet goes this long after the CONNECT answer (see there). */
const AUTH_AFTER_MS = 50;

const heartbeat = { pingIntervalMs: 300, pingTimeoutMs: 200, maxPayload: 1_000_000 };

/** A listening HTTP server, and how to close it after `close` (the protocol server's own). */
async function listen(
  httpServer: http.Server,
  port: number,
  host: string,
  close: () => Promise<void>,
): Promise<() => Promise<void>> {
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, host, resolve);
  });
  return async () => {
    await close();
    await new Promise<void>((r) => httpServer.close(() => r()));
  };
}

/**
 * socket.io-protocol's: 1 s to connect; `auth` echoed on connection, `message` answered
 * `message-back`, `message-with-ack` acknowledged with its arguments.
 */
export function startSocketIoServer(port: number, host = '::'): Promise<() => Promise<void>> {
  const httpServer = http.createServer();
  const auths = new WeakMap<Conn, Record<string, unknown>>();
  const server = new SocketServer(
    httpServer,
    {
      upgrade: () => ({ ok: true, release: () => undefined }),
      admit: (conn, auth) => {
        auths.set(conn, auth);
        return Promise.resolve(null);
      },
      // A moment later: the suite's client registers its listener for `auth` only once it has
      // read the CONNECT answer, and `ws` emits the frames of one TCP read synchronously, so a
      // second frame in the same read would be lost to it (on a busy machine, even one written
      // on the next turn). Well within the 300 ms before the first ping.
      connected: (conn) =>
        void setTimeout(() => conn.sendEvent('auth', auths.get(conn) ?? {}), AUTH_AFTER_MS),
      disconnected: () => undefined,
      afterWrite: () => undefined,
      events: {
        message: (conn, args) => void conn.sendEvent('message-back', ...args),
        'message-with-ack': (_conn, args, ack) => ack?.(...args),
      },
    },
    { ...heartbeat, connectTimeoutMs: 1000, refusedGraceMs: 100 },
  );
  return listen(httpServer, port, host, () => server.close());
}

/** engine.io-protocol's: at /engine.io/, every message sent back as it came. */
export function startEngineIoServer(port: number, host = '::'): Promise<() => Promise<void>> {
  const httpServer = http.createServer();
  const engine = new EngineServer<EngineConn>(
    httpServer,
    {
      opened: () => undefined,
      message: (conn, data) =>
        typeof data === 'string' ? conn.send(`4${data}`) : conn.send(data, { binary: true }),
      closed: () => undefined,
    },
    { ...heartbeat, path: '/engine.io/', Conn: EngineConn },
  );
  return listen(httpServer, port, host, () => engine.close());
}
