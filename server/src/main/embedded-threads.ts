import { MessageChannel, Worker, type MessagePort, type WorkerOptions } from 'node:worker_threads';
import type { Bus } from '@infra/bus';
import { bridgeBus } from '@infra/bus/port';
import type { Db } from '@infra/db';
import { portDb } from '@infra/db/ports/port-db';
import type { DbLane } from '@infra/db/ports/serve';
import type { Logger } from '@infra/logger';
import type { TapeFigures } from '@sim/index';
import type { DbThreadMessage } from './db-thread';
import type { SimReports } from './sim-role';
import type { SimThreadReport } from './sim-thread';

/**
 * The embedded app's threads (DECISIONS.md, "The feed off the api's event loop"): the database
 * (PGlite) and the simulator each run on a thread of their own, started from the main thread,
 * which keeps the api, the gateway and settlement.
 */

/**
 * A thread running the script `name` beside this module: the built `.js` as it is, or from source
 * the `.ts` through tsx's API (a worker does not inherit the `--import tsx` hooks on Node 20).
 */
function startThread(name: string, options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL(`./${name}.js`, import.meta.url), options);
  const script = new URL(`./${name}.ts`, import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(script)}, ${JSON.stringify(script)}))`;
  return new Worker(boot, { ...options, eval: true });
}

/** Resolves with the first message of `kind` from `worker`, rejects if the thread fails first. */
function whenSaid(worker: Worker, kind: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { kind?: string }) => {
      if (m.kind !== kind) return;
      worker.off('message', onMessage);
      worker.off('error', reject);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`thread exited (${code}) before "${kind}"`)));
  });
}

export interface DbThread {
  /** A connection to the database in `lane` (a MessagePort of its own). */
  connect(lane: DbLane): Db;
  /** A port for another thread's connection in `lane`. */
  portFor(lane: DbLane): MessagePort;
  close(): Promise<void>;
}

/** Starts PGlite (in `dataDir`, migrated) on its own thread. */
export async function startDbThread(
  dataDir: string,
  log: Logger,
  countStatementsS = 0,
): Promise<DbThread> {
  const worker = startThread('db-thread', { workerData: { dataDir, countStatementsS } });
  worker.on('error', (err) => log.fatal({ err: err.message }, 'the database thread failed'));
  await whenSaid(worker, 'ready');
  const send = (m: DbThreadMessage, transfer: MessagePort[] = []) =>
    worker.postMessage(m, transfer);
  const portFor = (lane: DbLane) => {
    const { port1, port2 } = new MessageChannel();
    send({ kind: 'connect', port: port2, lane }, [port2]);
    return port1;
  };
  return {
    connect: (lane) => portDb(portFor(lane)),
    portFor,
    async close() {
      const closed = whenSaid(worker, 'closed');
      send({ kind: 'close' });
      await closed;
      await worker.terminate();
    },
  };
}

export interface SimThread {
  whenLeading(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the simulator on its own thread: on the database thread's `tape` lane (PGlite) or a pool
 * of its own (PostgreSQL), and on `bus` through a bridge (in-process) or Redis itself. Its ticks,
 * lease and tape figures reach `reports`.
 */
export function startSimThread(o: {
  db: DbThread | null;
  bus: Bus;
  reports: SimReports;
  log: Logger;
}): SimThread {
  const transfer: MessagePort[] = [];
  const dbPort = o.db?.portFor('tape');
  if (dbPort) transfer.push(dbPort);
  let bridge: { close(): Promise<void> } | null = null;
  let busPort: MessagePort | undefined;
  if (o.bus.kind === 'memory') {
    const { port1, port2 } = new MessageChannel();
    bridge = bridgeBus(port1, o.bus, (m) => {
      if (m.type === 'tick') o.reports.tick(m.tick.id);
    });
    busPort = port2;
    transfer.push(port2);
  } else {
    // On Redis the simulator's thread publishes itself; count its ticks as they come back.
    void o.bus.subscribe('tick', ({ tick }) => o.reports.tick(tick.id));
  }
  const worker = startThread('sim-thread', {
    workerData: { dbPort, busPort },
    transferList: transfer,
  });
  let tape: TapeFigures | null = null;
  o.reports.tape(() => tape ?? { buffered: 0, lastWriteMs: null });
  worker.on('message', (r: SimThreadReport) => {
    if (r.kind === 'lease') o.reports.lease(r.state, r.epoch);
    else if (r.kind === 'tape') tape = r.figures;
    else if (r.kind === 'gap') o.reports.gap(r.productId, r.gapMs);
  });
  worker.on('error', (err) => o.log.fatal({ err: err.message }, 'the simulator thread failed'));
  const leading = whenSaid(worker, 'leading');
  return {
    whenLeading: () => leading,
    async stop() {
      const stopped = whenSaid(worker, 'stopped');
      worker.postMessage({ kind: 'stop' });
      await stopped;
      await worker.terminate();
      await bridge?.close();
      o.reports.tape(null);
    },
  };
}
