import http from 'node:http';
import { loadConfigOrExit } from '@server/config';
import { openDatabase } from '@server/platform/db';
import { openBus } from '@server/platform/bus';
import { createLogger } from '@server/platform/logger';
import { createMetrics } from '@server/platform/metrics';
import { closeServer, installShutdown, listen } from '@server/platform/lifecycle';
import { serveMetrics, startApi } from './roles';

/** The api role: REST, the settlement worker and daily jobs. Scale out freely. */
const config = loadConfigOrExit('api');
const log = createLogger(config.LOG_LEVEL, 'api');
const db = await openDatabase(config);
const bus = openBus(config.REDIS_URL, log, config.REDIS_NAMESPACE);

const metrics = createMetrics('api');
const api = await startApi(config, db, bus, log, { metrics });
const server = http.createServer(api.app);
const port = await listen(server, config.PORT, config.HOST);
const metricsListener = await serveMetrics(config, metrics.registry, log);
log.info({ host: config.HOST, port, database: db.kind, bus: bus.kind }, 'api ready');

installShutdown(log, config.SHUTDOWN_TIMEOUT_MS, [
  { name: 'http', close: () => closeServer(server) },
  { name: 'metrics', close: () => metricsListener?.close() },
  { name: 'api', close: () => api.close() },
  { name: 'bus', close: () => bus.close() },
  { name: 'database', close: () => db.close() },
]);
