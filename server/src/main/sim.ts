import { loadConfigOrExit, redisTarget } from '@server/config';
import { openDatabase } from '@infra/db';
import { openBus } from '@infra/bus';
import { createLogger } from '@infra/logger';
import { createMetrics } from '@server/platform/metrics';
import { closeServer, installShutdown, listen } from '@server/platform/lifecycle';
import {
  applyNice,
  exitOnFatal,
  openWhenReachable,
  startingServer,
} from '@server/platform/startup';
import { healthApp, serveMetrics, watchProcess } from './process-helpers';
import { simReportsTo, startSim } from './sim-role';

/**
 * The simulator role: the only writer of market data. One leads; any other started on the same
 * database waits as a hot standby and takes over when the leader stops (market-sim/src/lease.ts).
 */
const config = loadConfigOrExit('sim');
const log = createLogger(config.LOG_LEVEL, 'sim');
exitOnFatal(log);
applyNice(config.PROCESS_NICE, log);
if (!config.REDIS_URL) log.warn('REDIS_URL is not set: ticks stay inside this process');
// Listening at once, not ready (503) until the database is open.
const { server, serve } = startingServer();
const port = await listen(server, config.PORT, config.HOST);
const db = await openWhenReachable('database', () => openDatabase(config), log);
const bus = openBus(redisTarget(config), log, config.REDIS_NAMESPACE);

// Ready as leader or as standby: a standby is a healthy process waiting for its turn (the
// `sim_leader` metric and the log say which one leads).
const metrics = createMetrics('sim');
watchProcess(metrics, db, bus);
const sim = startSim(config, db, bus, log, simReportsTo(metrics));
serve(healthApp({ database: () => db.ping(), bus: () => bus.ready() }, log));
const metricsListener = await serveMetrics(config, metrics.registry, log);
log.info({ host: config.HOST, port, database: db.kind, bus: bus.kind }, 'sim ready');

installShutdown(
  log,
  config.SHUTDOWN_TIMEOUT_MS,
  [
    { name: 'http', close: () => closeServer(server) },
    { name: 'metrics', close: () => metricsListener?.close() },
    { name: 'sim', close: () => sim.stop() },
    { name: 'bus', close: () => bus.close() },
    { name: 'database', close: () => db.close() },
  ],
  config.SHUTDOWN_DRAIN_MS,
);
