import http from 'node:http';
import type { Logger } from '@infra/logger';

/**
 * Opens a dependency the process cannot start without (the database), retrying with a doubling
 * backoff up to `maxDelayMs` while it is unreachable: one JSON log line per attempt, never a
 * stack trace, and the process keeps waiting until it answers or is stopped.
 */
export async function openWhenReachable<T>(
  what: string,
  open: () => Promise<T>,
  log: Logger,
  { firstDelayMs = 500, maxDelayMs = 15_000 } = {},
): Promise<T> {
  for (let attempt = 1, delay = firstDelayMs; ; attempt++) {
    try {
      const value = await open();
      if (attempt > 1) log.info({ dependency: what, attempt }, `${what} reachable; starting`);
      return value;
    } catch (err) {
      log.warn(
        { dependency: what, attempt, retryInMs: delay, err: (err as Error).message },
        `${what} unreachable at start; retrying`,
      );
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(maxDelayMs, delay * 2);
    }
  }
}

/**
 * The process's HTTP server, listening before its dependencies are open: meanwhile `/healthz`
 * answers 200 (the process lives) and everything else 503 `{ ok: false, starting: true }`, so
 * `/readyz` is false until `serve` hands the requests to the real handler.
 */
export function startingServer(): {
  server: http.Server;
  serve: (handler: http.RequestListener) => void;
} {
  const starting: http.RequestListener = (req, res) => {
    const alive = req.url === '/healthz';
    res.writeHead(alive ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify(alive ? { ok: true } : { ok: false, starting: true }));
  };
  const server = http.createServer(starting);
  return {
    server,
    serve: (handler) => {
      server.off('request', starting);
      server.on('request', handler);
    },
  };
}

/** An error nothing caught ends the process with one JSON log line, not a raw stack trace. */
export function exitOnFatal(log: Logger): void {
  const fatal = (kind: string) => (err: unknown) => {
    log.fatal(
      { err: err instanceof Error ? err.message : String(err), kind },
      'fatal error; exiting',
    );
    process.exit(1);
  };
  process.on('uncaughtException', fatal('uncaught exception'));
  process.on('unhandledRejection', fatal('unhandled rejection'));
}
