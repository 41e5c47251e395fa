import { loadConfigOrExit, redisTarget } from '@server/config';
import { openDatabase } from '@infra/db';
import { openBus } from '@infra/bus';
import { createLogger } from '@infra/logger';
import { createMetrics } from '@server/platform/metrics';
import { startProcessReporter } from '@server/platform/process-reports';
import { closeServer, installShutdown, listen } from '@server/platform/lifecycle';
import {
  applyNice,
  exitOnFatal,
  openWhenReachable,
  startingServer,
} from '@server/platform/startup';
import { serveMetrics } from './process-helpers';
import { startApi } from './api-role';

/** The api role: REST, the settlement worker and daily jobs. Scale out freely. */
const config = loadConfigOrExit('api');
const log = createLogger(config.LOG_LEVEL, 'api');
exitOnFatal(log);
applyNice(config.PROCESS_NICE, log);
// Listening at once, not ready (503) until the database is open and the api built.
const { server, serve } = startingServer();
const port = await listen(server, config.PORT, config.HOST);
const db = await openWhenReachable('database', () => openDatabase(config), log);
const bus = openBus(redisTarget(config), log, config.REDIS_NAMESPACE);

const metrics = createMetrics('api');
const api = await startApi(config, db, bus, log, { metrics });
serve(api.app);
const reporter = api.settlementLags
  ? startProcessReporter({ bus, role: 'api', settlement: api.settlementLags.read, log })
  : null;
const metricsListener = await serveMetrics(config, metrics.registry, log);
log.info({ host: config.HOST, port, database: db.kind, bus: bus.kind }, 'api ready');

installShutdown(
  log,
  config.SHUTDOWN_TIMEOUT_MS,
  [
    { name: 'http', close: () => closeServer(server) },
    { name: 'report', close: () => reporter?.stop() },
    { name: 'metrics', close: () => metricsListener?.close() },
    { name: 'api', close: () => api.close() },
    { name: 'bus', close: () => bus.close() },
    { name: 'database', close: () => db.close() },
  ],
  config.SHUTDOWN_DRAIN_MS,
);
