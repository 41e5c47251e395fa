import cluster from 'node:cluster';
import { loadConfigOrExit } from '@server/config';
import { gatewayProcesses, runGatewayPrimary, workerLink } from '@server/gateway/cluster';
import { openBus } from '@infra/bus';
import { createLogger } from '@infra/logger';
import { createMetrics } from '@server/platform/metrics';
import { startProcessReporter } from '@server/platform/process-reports';
import { installShutdown, listen } from '@server/platform/lifecycle';
import { exitOnFatal } from '@server/platform/startup';
import { attachGateway, healthServer, serveMetrics, watchProcess } from './roles';
import { authenticateViaApi, watchApi } from './api-link';

/**
 * The gateway role: Socket.IO only, no database. Scale out freely behind a load balancer, and
 * over a machine's cores with GATEWAY_PROCESSES (gateway/cluster.ts).
 */
const config = loadConfigOrExit('gateway');
const processes = gatewayProcesses(config.GATEWAY_PROCESSES);
const log = createLogger(config.LOG_LEVEL, 'gateway');
exitOnFatal(log);

if (processes > 1 && cluster.isPrimary) {
  runGatewayPrimary({ processes, log, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
} else {
  if (!config.REDIS_URL)
    log.warn('REDIS_URL is not set: this gateway hears no simulator in another process');
  if (cluster.isWorker && !config.REDIS_URL)
    log.warn('GATEWAY_PROCESSES > 1 without REDIS_URL: user events reach no socket');
  const bus = openBus(config.REDIS_URL, log, config.REDIS_NAMESPACE);

  const metrics = createMetrics('gateway');
  watchProcess(metrics, {}, bus);
  // One of several processes on this port: /readyz and the private /metrics speak for all of
  // them, as a probe or a scrape reaches whichever process the primary hands the connection to.
  const link = cluster.isWorker ? workerLink(metrics.registry, () => bus.ready()) : null;
  const api = config.API_URL ? watchApi(config.API_URL, log, metrics) : null;
  const server = healthServer(
    link ? { bus: () => bus.ready(), processes: link.allReady } : { bus: () => bus.ready() },
    log,
    api ? { api: () => api.reachable() } : {},
  );
  const gateway = await attachGateway(server, bus, log, {
    authenticate: config.API_URL ? authenticateViaApi(config.API_URL, api ?? undefined) : undefined,
    redisUrl: config.REDIS_URL,
    namespace: config.REDIS_NAMESPACE,
    metrics,
    config,
  });
  if (!config.API_URL)
    log.warn(
      'API_URL is not set: socket tokens go unchecked, every socket is anonymous (market data only)',
    );
  const port = await listen(server, config.PORT, config.HOST);
  const reporter = startProcessReporter({ bus, role: 'gateway', gateway: gateway.figures, log });
  const metricsListener = await serveMetrics(
    config,
    link ? { metrics: () => link.metrics(), contentType: link.contentType } : metrics.registry,
    log,
  );
  log.info({ host: config.HOST, port, bus: bus.kind, pid: process.pid }, 'gateway ready');

  installShutdown(log, config.SHUTDOWN_TIMEOUT_MS, [
    { name: 'gateway', close: () => gateway.close() },
    { name: 'report', close: () => reporter.stop() },
    { name: 'api watch', close: () => api?.stop() },
    { name: 'metrics', close: () => metricsListener?.close() },
    { name: 'bus', close: () => bus.close() },
  ]);
}
