import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
/**
 * The IPC between the benchmark and its children (servers and the tick publisher). A server child
 * answers `sample` with its own CPU time and memory, after a full GC when asked (the child runs
 * with --expose-gc), so every figure is per server process.
 */

export interface ProcessSample {
  /** process.cpuUsage(), user + system, µs. */
  cpuUs: number;
  /** Of which in the kernel (system calls: for a socket write on loopback, also the receiving side's TCP work). */
  systemUs: number;
  heapUsed: number;
  rss: number;
  /** Memory outside the V8 heap (Buffers, ws frames), bytes. */
  external: number;
}

export type ToChild =
  | { type: 'sample'; id: number; gc: boolean }
  | {
      type: 'publish';
      id: number;
      /** `emitter`: @socket.io/redis-emitter; `bus`: the app's Redis bus (what the simulator uses). */
      mode: 'emitter' | 'bus';
      redisUrl: string;
      /** Socket.IO key (emitter) or bus namespace. */
      key: string;
      ticksPerSec: number;
    }
  | { type: 'halt'; id: number }
  /** What the publisher has sent so far in this run. */
  | { type: 'count'; id: number }
  /** CPU profile of the measured window only (node:inspector); `stop` writes `file`. */
  | { type: 'profile'; id: number; action: 'start' | 'stop'; file: string };

export type FromChild =
  | { type: 'ready' }
  | ({ type: 'sample'; id: number } & ProcessSample)
  | { type: 'publishing'; id: number }
  | { type: 'profiled'; id: number }
  | { type: 'halted'; id: number; ticks: number; snapshots: number }
  | { type: 'counted'; id: number; ticks: number; snapshots: number }
  | { type: 'error'; id?: number; message: string };

export function sampleSelf(runGc: boolean): ProcessSample {
  if (runGc && globalThis.gc) {
    // Twice: the first pass can leave objects that only the second finds unreachable (weak refs).
    globalThis.gc();
    globalThis.gc();
  }
  const cpu = process.cpuUsage();
  const mem = process.memoryUsage();
  return {
    cpuUs: cpu.user + cpu.system,
    systemUs: cpu.system,
    heapUsed: mem.heapUsed,
    rss: mem.rss,
    external: mem.external,
  };
}

export const send = (m: FromChild): void => {
  process.send?.(m);
};

/**
 * For server children: answer samples, and exit when the benchmark goes away (a child never
 * outlives its run).
 */
export function installProbe(): void {
  let session: Session | null = null;
  process.on('message', (raw) => {
    const m = raw as ToChild;
    if (m.type === 'sample') send({ type: 'sample', id: m.id, ...sampleSelf(m.gc) });
    if (m.type !== 'profile') return;
    const fail = (err: unknown) =>
      send({ type: 'error', id: m.id, message: `profile: ${(err as Error).message}` });
    if (m.action === 'start') {
      session = new Session();
      session.connect();
      const s = session;
      s.post('Profiler.enable', () =>
        s.post('Profiler.start', (err) => (err ? fail(err) : send({ type: 'profiled', id: m.id }))),
      );
    } else if (session) {
      const s = session;
      session = null;
      s.post('Profiler.stop', (err, result) => {
        if (err) return fail(err);
        try {
          writeFileSync(m.file, JSON.stringify(result.profile));
          send({ type: 'profiled', id: m.id });
        } catch (e) {
          fail(e);
        }
        s.disconnect();
      });
    }
  });
  process.on('disconnect', () => process.exit(0));
}
