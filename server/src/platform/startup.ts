import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
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

/**
 * Sets the process's scheduling priority when `nice` is given (PROCESS_NICE). A refusal (a
 * negative value without CAP_SYS_NICE) is logged and the process goes on at its priority.
 */
export function applyNice(nice: number | undefined, log: Logger): void {
  if (nice === undefined) return;
  try {
    os.setPriority(nice);
    log.info({ nice }, 'scheduling priority set');
  } catch (err) {
    log.warn({ nice, err: (err as Error).message }, 'could not set the scheduling priority');
  }
}

/** The calling thread's kernel task id (Linux), or null where threads have none to read. */
export function threadTaskId(): number | null {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Runs the calling thread `boost` nice levels ahead of its process (Linux schedules each thread
 * as a task of its own, and `setpriority` on a thread's task id changes that thread alone). The
 * embedded simulator's thread uses it: with the api's requests and the database thread busy on
 * two cores, an equal share could still make a tick a few hundred milliseconds late; ahead of
 * them, the feed's timers run when due. Raising a priority needs CAP_SYS_NICE (root, or a
 * container granted it); without it the thread keeps the process's priority, and says so.
 * Returns the thread's nice level afterwards, or null when it could not be read.
 */
export function favourThisThread(boost: number, log: Logger): number | null {
  const tid = threadTaskId();
  if (tid === null) {
    log.info('no per-thread priority on this system: the feed thread shares the CPU equally');
    return null;
  }
  const before = os.getPriority(tid);
  try {
    os.setPriority(tid, Math.max(-20, before - boost));
  } catch (err) {
    log.info(
      { err: (err as Error).message },
      "could not raise the feed thread's priority (needs CAP_SYS_NICE): it shares the CPU equally",
    );
  }
  return os.getPriority(tid);
}
