import type { Server } from 'node:http';
import type { Logger } from '@infra/logger';

type Closer = { name: string; close: () => Promise<unknown> | void };

let draining = false;

/**
 * True once a stop signal arrived: `/readyz` answers 503 from then on, so a balancer that polls
 * it takes the process out while it still serves (the drain window of `installShutdown`).
 */
export const shuttingDown = (): boolean => draining;

/**
 * Graceful shutdown on SIGTERM and SIGINT: readiness fails at once (`shuttingDown`), requests
 * are still served for `drainMs` while the balancer notices, then the closers run in order (stop
 * accepting, drain, close connections), together bounded by `timeoutMs`, and the process exits.
 * A second signal exits at once.
 */
export function installShutdown(
  log: Logger,
  timeoutMs: number,
  closers: Closer[],
  drainMs = 0,
): void {
  const stop = (signal: string) => {
    if (draining) {
      log.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    draining = true;
    log.info({ signal, drainMs }, 'shutting down');
    void (async () => {
      if (drainMs > 0) await new Promise((r) => setTimeout(r, drainMs));
      const timer = setTimeout(() => {
        log.error('shutdown timed out, exiting');
        process.exit(1);
      }, timeoutMs);
      timer.unref();
      for (const c of closers) {
        try {
          await c.close();
        } catch (err) {
          log.warn({ err, closer: c.name }, 'closer failed');
        }
      }
      log.info('stopped');
      process.exit(0);
    })();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * How long a client may take over a request, and how long an idle connection stays, on every
 * HTTP server the processes run (api, gateway, simulator, worker, metrics): DECISIONS.md, Public
 * market reads and order throttles. Node's defaults (60 s for the headers, 300 s for a whole request) let a client that
 * sends a byte now and then hold a connection, and its memory, for minutes.
 */
export interface HttpLimits {
  /** The request line and headers must have arrived within this (then 408 and closed). */
  headersTimeoutMs: number;
  /**
   * The whole request, body included. One figure for every route (Node checks it per server):
   * long enough for an identity or deposit image (at most 5 MB, about 1 MB after the client
   * shrinks it) over a slow mobile uplink; JSON bodies (64 kB at most) need a fraction of it.
   */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Requests on one connection before the server closes it (the client reconnects). */
  maxRequestsPerSocket: number;
  /** How often the timeouts above are checked (a check may cut a request this much late). */
  checkEveryMs: number;
}

export const httpLimits: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 1000,
  checkEveryMs: 1000,
};

/** Sets `limits` on a server; before it listens (Node starts the timeout checks then). */
export function applyHttpLimits(server: Server, limits: HttpLimits = httpLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  // Read by Node when the server starts listening (not a typed property of Server in @types/node 20).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    limits.checkEveryMs;
}

/**
 * Listens and resolves with the bound port (PORT=0 picks a free one), with the slow-client
 * limits (`httpLimits` unless told otherwise) set first.
 */
export function listen(
  server: Server,
  port: number,
  host: string,
  limits: HttpLimits = httpLimits,
): Promise<number> {
  applyHttpLimits(server, limits);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** Stops accepting connections and ends idle keep-alive ones; resolves when the server is closed. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
