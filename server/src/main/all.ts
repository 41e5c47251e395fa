import http from 'node:http';
import { loadConfigOrExit } from '@server/config';
import { openDatabase } from '@infra/db';
import { openBus } from '@infra/bus';
import { createLogger } from '@infra/logger';
import { createMetrics } from '@server/platform/metrics';
import { startProcessReporter } from '@server/platform/process-reports';
import { installShutdown, listen } from '@server/platform/lifecycle';
import { exitOnFatal, openWhenReachable } from '@server/platform/startup';
import { attachGateway, serveMetrics, startApi, startSim } from './roles';

/** Embedded mode: sim, api, gateway and worker in one process, on PGlite and the in-process bus by default. */
const config = loadConfigOrExit('all');
const log = createLogger(config.LOG_LEVEL, 'all');
exitOnFatal(log);
const db = await openWhenReachable('database', () => openDatabase(config), log);
const bus = openBus(config.REDIS_URL, log, config.REDIS_NAMESPACE);

// One registry for the whole process: api, gateway and worker figures side by side, served on
// the private metrics listener (METRICS_PORT), never on the app's port.
const metrics = createMetrics('all');
const api = await startApi(config, db, bus, log, { embedded: true, metrics });
const server = http.createServer(api.app);
const gateway = await attachGateway(server, bus, log, {
  authenticate: async (token) => {
    const session = await api.auth.authenticate(token);
    return session ? String(session.userId) : null;
  },
  redisUrl: config.REDIS_URL,
  namespace: config.REDIS_NAMESPACE,
  metrics,
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
// page already has prices and history.
const sim = startSim(config, db, bus, log, metrics);
await sim.whenLeading();
const port = await listen(server, config.PORT, config.HOST);
const metricsListener = await serveMetrics(config, metrics.registry, log);
log.info(
  { host: config.HOST, port, database: db.kind, bus: bus.kind },
  `app ready at http://${browsable(config.HOST)}:${port}`,
);

installShutdown(log, config.SHUTDOWN_TIMEOUT_MS, [
  // Closing the gateway closes the HTTP server it shares with the api.
  { name: 'gateway', close: () => gateway.close() },
  { name: 'report', close: () => reporter.stop() },
  { name: 'metrics', close: () => metricsListener?.close() },
  { name: 'sim', close: () => sim.stop() },
  { name: 'api', close: () => api.close() },
  { name: 'bus', close: () => bus.close() },
  { name: 'database', close: () => db.close() },
]);

/** An address to open in a browser: a wildcard listen is reached through localhost. */
function browsable(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
