import { loadConfigOrExit } from '@server/config';
import { openDatabase } from '@server/platform/db';
import { openBus } from '@server/platform/bus';
import { createLogger } from '@server/platform/logger';
import { createMetrics } from '@server/platform/metrics';
import { closeServer, installShutdown, listen } from '@server/platform/lifecycle';
import { healthServer, serveMetrics, startSim } from './roles';

/** The simulator role: the only writer of market data. Run exactly one. */
const config = loadConfigOrExit('sim');
const log = createLogger(config.LOG_LEVEL, 'sim');
if (!config.REDIS_URL) log.warn('REDIS_URL is not set: ticks stay inside this process');
const db = await openDatabase(config);
const bus = openBus(config.REDIS_URL, log, config.REDIS_NAMESPACE);

const feed = await startSim(config, db, bus, log);
const server = healthServer({ database: () => db.ping(), bus: () => bus.ready() }, log);
const port = await listen(server, config.PORT, config.HOST);
// Process figures only (CPU, memory, event-loop delay): the sim has no product counters yet.
const metricsListener = await serveMetrics(config, createMetrics('sim').registry, log);
log.info({ host: config.HOST, port, database: db.kind, bus: bus.kind }, 'sim ready');

installShutdown(log, config.SHUTDOWN_TIMEOUT_MS, [
  { name: 'http', close: () => closeServer(server) },
  { name: 'metrics', close: () => metricsListener?.close() },
  { name: 'sim', close: () => feed.stop() },
  { name: 'bus', close: () => bus.close() },
  { name: 'database', close: () => db.close() },
]);
