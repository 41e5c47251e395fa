import type { Logger } from '@infra/logger';
import type { Metrics } from '../platform/metrics';
import { sendFrame } from './engine';
import type { Conn, HeldFrame } from './socket-server';

/**
 * Per-socket send backlog limits, in bytes of what the gateway holds for a socket beyond what the
 * kernel took (`ws`'s `bufferedAmount`: the TCP socket's pending writes).
 */
export interface BacklogLimits {
  /** Past this, market channels are conflated: only their newest message waits to be sent. */
  conflateBytes: number;
  /** Past this, the socket is disconnected (close code 1008, reason "slow consumer"). */
  disconnectBytes: number;
}

export const defaultBacklogLimits: BacklogLimits = {
  conflateBytes: 64 * 1024,
  disconnectBytes: 512 * 1024,
};

/** WebSocket close code and reason a slow consumer hears (if it ever reads that far). */
export const SLOW_CONSUMER_CLOSE = { code: 1008, reason: 'slow consumer' } as const;
/** How long a slow consumer's close frame may wait behind its backlog before the TCP socket is cut. */
const SLOW_CLOSE_GRACE_MS = 1_000;
/** How often conflated sockets are looked at: their held messages go out once they have drained. */
const RECHECK_MS = 100;

export interface MarketMessage extends HeldFrame {
  /** The room: `market` or `ticks:<id>`. Held messages are keyed by it. */
  channel: string;
}

/**
 * What happens to a socket whose client reads slower than the gateway writes (a phone on a bad
 * network, a client that stopped reading):
 * - backlog ≤ conflateBytes: every message is written as it comes;
 * - above it, market messages are held instead, one per channel: a newer tick or snapshot
 *   replaces the held one (its `seq`/`ts` show the client the gap). Once the backlog is back under
 *   the threshold, the held ones go out, then new ones as they come. Per channel the order never
 *   changes; a socket whose backlog is under the threshold is never touched;
 * - above disconnectBytes, the socket is disconnected.
 * User events (orders, balances, messages, sessionEnded) are never conflated or dropped: they
 * are written whatever the backlog and count toward the disconnect threshold, so a client either
 * gets every one of them or is disconnected, and refetches its state when it reconnects.
 */
export function createBacklog(
  limits: BacklogLimits,
  log: Logger,
  metrics?: Pick<Metrics, 'slowConsumers' | 'conflated'>,
) {
  const conflating = new Set<Conn>();
  /** Disconnected slow consumers until their TCP socket is cut (their backlog is still held). */
  const closing = new Set<Conn>();

  const flush = (conn: Conn) => {
    const held = conn.held;
    conn.held = null;
    conflating.delete(conn);
    if (held) for (const m of held.values()) sendFrame(conn, [m.frame]);
  };

  const disconnect = (conn: Conn, backlog: number) => {
    metrics?.slowConsumers.inc({ action: 'disconnected' });
    log.info({ backlog, sid: conn.id }, 'slow consumer disconnected');
    conflating.delete(conn);
    conn.held = null;
    conn.server?.detach(conn);
    conn.close(SLOW_CONSUMER_CLOSE.code, SLOW_CONSUMER_CLOSE.reason);
    closing.add(conn);
    setTimeout(() => {
      closing.delete(conn);
      conn.terminate();
    }, SLOW_CLOSE_GRACE_MS).unref();
  };

  /** Flushes or disconnects conflated sockets as their backlog moves, even with no new message. */
  const recheck = setInterval(() => {
    for (const conn of conflating) {
      if (!conn.connected) {
        conflating.delete(conn);
        continue;
      }
      const b = conn.bufferedAmount;
      if (b > limits.disconnectBytes) disconnect(conn, b);
      else if (b <= limits.conflateBytes) flush(conn);
    }
  }, RECHECK_MS);
  recheck.unref();

  return {
    /** One market message to one socket, by its backlog. */
    deliver(conn: Conn, m: MarketMessage): void {
      const b = conn.bufferedAmount;
      if (b <= limits.conflateBytes) {
        if (conn.held) {
          conn.held.delete(m.channel); // this one is newer
          flush(conn);
        }
        sendFrame(conn, [m.frame]);
        return;
      }
      if (b > limits.disconnectBytes) return disconnect(conn, b);
      if (!conn.held) {
        conn.held = new Map();
        conflating.add(conn);
        metrics?.slowConsumers.inc({ action: 'conflated' });
      }
      if (conn.held.delete(m.channel)) metrics?.conflated.inc();
      conn.held.set(m.channel, m);
    },

    /** After a write outside a broadcast (a user event): past the limit, disconnect. */
    check(conn: Conn): void {
      const b = conn.bufferedAmount;
      if (b > limits.disconnectBytes) disconnect(conn, b);
    },

    forget(conn: Conn): void {
      conflating.delete(conn);
      conn.held = null;
    },

    /** Bytes held for `sockets` and for slow consumers being closed. */
    bytes(sockets: Iterable<Conn>): number {
      let n = 0;
      for (const conn of sockets) n += conn.bufferedAmount;
      for (const conn of closing) n += conn.bufferedAmount;
      return n;
    },

    /** Sockets conflated now (for tests). */
    get conflating(): number {
      return conflating.size;
    },

    stop(): void {
      clearInterval(recheck);
    },
  };
}
