import http from 'node:http';
import { loadConfigOrExit, redisTarget } from '@server/config';
import { openDatabase } from '@infra/db';
import { openBus } from '@infra/bus';
import { createLogger } from '@infra/logger';
import { createMetrics } from '@server/platform/metrics';
import { startProcessReporter } from '@server/platform/process-reports';
import { installShutdown, listen } from '@server/platform/lifecycle';
import { applyNice, exitOnFatal, openWhenReachable } from '@server/platform/startup';
import { attachGateway } from './gateway-role';
import { serveMetrics } from './process-helpers';
import { startApi } from './api-role';
import { startDbThread, startSimThread } from './embedded-threads';
import { simReportsTo } from './sim-role';

/** Embedded mode: sim, api, gateway and worker in one process, on PGlite and the in-process bus by default. */
const config = loadConfigOrExit('all');
const log = createLogger(config.LOG_LEVEL, 'all');
exitOnFatal(log);
applyNice(config.PROCESS_NICE, log);
// On PGlite the database runs on a thread of its own, serving the simulator's tape first; on
// PostgreSQL every thread has its own pool (embedded-threads.ts).
const dbThread = config.DATABASE_URL
  ? null
  : await startDbThread(config.dbDir, log, config.DB_COUNT_STATEMENTS_S);
const db = dbThread
  ? dbThread.connect('requests')
  : await openWhenReachable('database', () => openDatabase(config), log);
const bus = openBus(redisTarget(config), log, config.REDIS_NAMESPACE);

// One registry for the whole process: api, gateway and worker figures side by side, served on
// the private metrics listener (METRICS_PORT), never on the app's port.
const metrics = createMetrics('all');
const api = await startApi(config, db, bus, log, {
  embedded: true,
  metrics,
  settlementDb: dbThread?.connect('system'),
});
const server = http.createServer(api.app);
const gateway = await attachGateway(server, bus, log, {
  authenticate: async (token) => {
    const session = await api.auth.authenticate(token);
    return session ? String(session.userId) : null;
  },
  redis: redisTarget(config),
  namespace: config.REDIS_NAMESPACE,
  metrics,
  revokedSessions: api.revokedSessions,
  replay: api.userEvents.replay,
  config,
});
api.userEvents.bind?.(gateway.io);
const reporter = startProcessReporter({
  bus,
  role: 'all',
  gateway: gateway.figures,
  settlement: api.settlementLags?.read,
  log,
});
// The embedded app serves once its simulator leads (at once on its own database), so the first
// page already has prices and history. The simulator runs on a thread of its own: no request
// load on this thread can delay a tick.
const sim = startSimThread({ db: dbThread, bus, reports: simReportsTo(metrics), log });
await sim.whenLeading();
const port = await listen(server, config.PORT, config.HOST);
const metricsListener = await serveMetrics(config, metrics.registry, log);
log.info(
  { host: config.HOST, port, database: db.kind, bus: bus.kind },
  `app ready at http://${browsable(config.HOST)}:${port}`,
);

installShutdown(
  log,
  config.SHUTDOWN_TIMEOUT_MS,
  [
    // Closing the gateway closes the HTTP server it shares with the api.
    { name: 'gateway', close: () => gateway.close() },
    { name: 'report', close: () => reporter.stop() },
    { name: 'metrics', close: () => metricsListener?.close() },
    { name: 'sim', close: () => sim.stop() },
    { name: 'api', close: () => api.close() },
    { name: 'bus', close: () => bus.close() },
    { name: 'database', close: () => db.close() },
    { name: 'database thread', close: () => dbThread?.close() },
  ],
  config.SHUTDOWN_DRAIN_MS,
);

/** An address to open in a browser: a wildcard listen is reached through localhost. */
function browsable(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
