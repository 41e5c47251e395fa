import type { Server } from 'node:http';
import type { Logger } from '@infra/logger';

type Closer = { name: string; close: () => Promise<unknown> | void };

/**
 * Graceful shutdown on SIGTERM and SIGINT: run the closers in order (stop accepting, drain,
 * close connections), each bounded by the overall timeout, then exit. A second signal exits at once.
 */
export function installShutdown(log: Logger, timeoutMs: number, closers: Closer[]): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error('shutdown timed out, exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    void (async () => {
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

/** Listens and resolves with the bound port (PORT=0 picks a free one). */
export function listen(server: Server, port: number, host: string): Promise<number> {
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
