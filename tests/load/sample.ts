import { io, type Socket } from 'socket.io-client';
import type { Tick } from '@shared/market/model';
import type { ClientToServerEvents, ServerToClientEvents, SubscribeAck } from '@shared/socket';

/**
 * A few real socket.io-client connections beside the light ones: they prove the light clients'
 * view with the same library the browser uses, and check ordering, which the light clients skip
 * to stay cheap.
 */

export interface OrderViolations {
  /** A seq not greater than the previous one of its product (duplicate or reordered). */
  backwards: number;
  /** A seq more than one past the previous one of its product (a tick was lost). */
  gaps: number;
  /** Ticks lost in those gaps, summed. */
  missing: number;
}

/** Per-product sequence check. The first tick of a product only sets the baseline. */
export class SeqChecker {
  readonly violations: OrderViolations = { backwards: 0, gaps: 0, missing: 0 };
  checked = 0;
  private readonly last = new Map<string, number>();

  see(tick: Pick<Tick, 'id' | 'seq'>): void {
    const prev = this.last.get(tick.id);
    this.checked++;
    if (prev !== undefined) {
      if (tick.seq <= prev) {
        this.violations.backwards++;
        return; // keep the higher baseline so one late tick counts once
      }
      if (tick.seq > prev + 1) {
        this.violations.gaps++;
        this.violations.missing += tick.seq - prev - 1;
      }
    }
    this.last.set(tick.id, tick.seq);
  }
}

export interface SampleReport {
  clients: number;
  connected: number;
  subscribeFailures: number;
  disconnects: number;
  ticks: number;
  snapshots: number;
  violations: OrderViolations;
  /** Why sockets did not connect or subscribe (connect_error message, ack error code, timeout). */
  failures: Record<string, number>;
}

type SampleSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface SampleClients {
  report(): SampleReport;
  close(): void;
}

/** Opens `count` socket.io-client sockets, each subscribing to `channels` and checking order. */
export async function openSampleClients(
  url: string,
  channels: string[],
  count: number,
  timeoutMs = 10_000,
): Promise<SampleClients> {
  const sockets: SampleSocket[] = [];
  const checkers: SeqChecker[] = [];
  const r = { connected: 0, subscribeFailures: 0, disconnects: 0, ticks: 0, snapshots: 0 };
  const failures: Record<string, number> = {};
  const failedBecause = (why: string) => (failures[why] = (failures[why] ?? 0) + 1);
  let closing = false;

  const openOne = (): Promise<void> =>
    new Promise((resolve) => {
      const checker = new SeqChecker();
      // No reconnection: a drop must show up as a disconnect, not be papered over.
      const s: SampleSocket = io(url, {
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        timeout: timeoutMs,
      });
      sockets.push(s);
      checkers.push(checker);
      s.on('tick', (t) => {
        r.ticks++;
        checker.see(t);
      });
      s.on('market', () => r.snapshots++);
      s.on('disconnect', () => {
        if (!closing) r.disconnects++;
      });
      s.once('connect_error', (err) => {
        failedBecause(`connect_error ${err.message}`);
        resolve();
      });
      s.once('connect', () => {
        r.connected++;
        s.timeout(timeoutMs).emit('subscribe', channels, (err: Error | null, ack: SubscribeAck) => {
          if (err || !('ok' in ack)) {
            r.subscribeFailures++;
            failedBecause(err || 'ok' in ack ? 'subscribe timeout' : `subscribe ${ack.error.code}`);
          }
          resolve();
        });
      });
    });

  await Promise.all(Array.from({ length: count }, openOne));
  return {
    report() {
      const violations: OrderViolations = { backwards: 0, gaps: 0, missing: 0 };
      for (const c of checkers) {
        violations.backwards += c.violations.backwards;
        violations.gaps += c.violations.gaps;
        violations.missing += c.violations.missing;
      }
      return { clients: count, ...r, violations, failures: { ...failures } };
    },
    close() {
      closing = true;
      for (const s of sockets) s.disconnect();
    },
  };
}
