/**
 * The embedded simulator's thread (`npm start`): the feed, its lease and its tape writer run here,
 * off the api's event loop, so no amount of request work can delay a tick. It reaches the
 * database through a port to the database thread (the `tape` lane) when the app runs on PGlite,
 * or a pool of its own on PostgreSQL; and the bus through a bridge to the main thread's
 * in-process bus, or Redis itself.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { loadConfigOrExit, redisTarget } from '@server/config';
import { createLogger } from '@infra/logger';
import { openBus } from '@infra/bus';
import { portBus } from '@infra/bus/port';
import { createPostgresDb } from '@infra/db/postgres';
import { portDb } from '@infra/db/ports/port-db';
import type { LeaseState, TapeFigures } from '@sim/index';
import { favourThisThread } from '@server/platform/startup';
import { startSim } from './sim-role';

/** How many nice levels the feed's thread runs ahead of the rest of the process. */
const FEED_THREAD_BOOST = 5;

/** What the simulator's thread tells the main thread. */
export type SimThreadReport =
  | { kind: 'lease'; state: LeaseState; epoch: number }
  | { kind: 'tape'; figures: TapeFigures | null }
  | { kind: 'gap'; productId: string; gapMs: number }
  | { kind: 'leading' }
  | { kind: 'stopped' };

const { dbPort, busPort } = workerData as { dbPort?: MessagePort; busPort?: MessagePort };
// The main thread checked the same environment already.
const config = loadConfigOrExit('all');
const log = createLogger(config.LOG_LEVEL, 'all').child({ thread: 'sim' });
// Ahead of the api's and the database's threads: a flood of requests cannot make ticks late.
favourThisThread(FEED_THREAD_BOOST, log);
const db = dbPort
  ? portDb(dbPort)
  : createPostgresDb({
      url: config.DATABASE_URL!,
      max: 4,
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    });
const bus = busPort ? portBus(busPort) : openBus(redisTarget(config), log, config.REDIS_NAMESPACE);
const report = (r: SimThreadReport) => parentPort!.postMessage(r);

let tape: (() => TapeFigures) | null = null;
const tapeTimer = setInterval(() => report({ kind: 'tape', figures: tape?.() ?? null }), 1000);
const sim = startSim(config, db, bus, log, {
  lease: (state, epoch) => report({ kind: 'lease', state, epoch }),
  // Counted by the main thread as the ticks cross the bus bridge (or from Redis).
  tick: () => undefined,
  gap: (productId, gapMs) => report({ kind: 'gap', productId, gapMs }),
  tape: (source) => (tape = source),
});
void sim.whenLeading().then(() => report({ kind: 'leading' }));

parentPort!.on('message', (m: { kind: 'stop' }) => {
  if (m.kind !== 'stop') return;
  clearInterval(tapeTimer);
  void sim
    .stop()
    .then(() => bus.close())
    .then(() => db.close())
    .finally(() => report({ kind: 'stopped' }));
});
