import cluster from 'node:cluster';
import { loadConfigOrExit, redisTarget } from '@server/config';
import { gatewayProcesses, runGatewayPrimary, workerLink } from '@server/gateway/cluster';
import { openBus } from '@infra/bus';
import { createLogger } from '@infra/logger';
import { createMetrics } from '@server/platform/metrics';
import { startProcessReporter } from '@server/platform/process-reports';
import { installShutdown, listen } from '@server/platform/lifecycle';
import { applyNice, exitOnFatal } from '@server/platform/startup';
import { commandRedis } from '@server/platform/redis';
import { redisRevokedSessions } from '@server/platform/revoked-sessions';
import { attachGateway } from './gateway-role';
import { healthServer, serveMetrics, watchProcess } from './process-helpers';
import { authenticateViaApi, watchApi } from './api-link';

/**
 * The gateway role: Socket.IO only, no database. Scale out freely behind a load balancer, and
 * over a machine's cores with GATEWAY_PROCESSES (gateway/cluster.ts).
 */
const config = loadConfigOrExit('gateway');
const processes = gatewayProcesses(config.GATEWAY_PROCESSES);
const log = createLogger(config.LOG_LEVEL, 'gateway');
exitOnFatal(log);
applyNice(config.PROCESS_NICE, log);

if (processes > 1 && cluster.isPrimary) {
  runGatewayPrimary({ processes, log, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
} else {
  if (!config.REDIS_URL)
    log.warn('REDIS_URL is not set: this gateway hears no simulator in another process');
  if (cluster.isWorker && !config.REDIS_URL)
    log.warn('GATEWAY_PROCESSES > 1 without REDIS_URL: user events reach no socket');
  const bus = openBus(redisTarget(config), log, config.REDIS_NAMESPACE);

  // A cluster's worker labels its series with its slot (`process`), so no aggregation hides it.
  const metrics = createMetrics('gateway', {
    process: cluster.isWorker ? config.GATEWAY_PROCESS_SLOT : undefined,
  });
  watchProcess(metrics, {}, bus);
  // One of several processes on this port: /readyz and the private /metrics speak for all of
  // them, as a probe or a scrape reaches whichever process the primary hands the connection to.
  const link = cluster.isWorker ? workerLink(metrics.registry, () => bus.ready()) : null;
  const api = config.API_URL ? watchApi(config.API_URL, log, metrics) : null;
  // A draining gateway is not ready: the balancer sends it no one new while its sockets leave.
  let draining = () => false;
  const server = healthServer(
    {
      bus: () => bus.ready(),
      ...(link ? { processes: link.allReady } : {}),
      accepting: () => !draining(),
    },
    log,
    api ? { api: () => api.reachable() } : {},
  );
  const target = redisTarget(config);
  // Socket tickets are checked against the ended sessions the api records in Redis.
  const revocations = target ? commandRedis(target, 'gateway-revocations', log) : null;
  if (!config.SOCKET_TICKET_SECRET)
    log.warn(
      'SOCKET_TICKET_SECRET is not set: every signed-in socket connection is checked by the api (no socket tickets)',
    );
  else if (!revocations)
    log.warn(
      'SOCKET_TICKET_SECRET without REDIS_URL: no ended sessions to check, no socket tickets',
    );
  const gateway = await attachGateway(server, bus, log, {
    authenticate: config.API_URL ? authenticateViaApi(config.API_URL, api ?? undefined) : undefined,
    redis: target,
    namespace: config.REDIS_NAMESPACE,
    metrics,
    revokedSessions: revocations
      ? redisRevokedSessions(revocations, config.REDIS_NAMESPACE, config.SOCKET_TICKET_TTL_MS)
      : undefined,
    drainMs: config.GATEWAY_DRAIN_MS,
    config,
  });
  draining = () => gateway.draining();
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

  installShutdown(
    log,
    config.SHUTDOWN_TIMEOUT_MS,
    [
      { name: 'gateway', close: () => gateway.close() },
      { name: 'report', close: () => reporter.stop() },
      { name: 'api watch', close: () => api?.stop() },
      { name: 'metrics', close: () => metricsListener?.close() },
      { name: 'revocations', close: () => revocations?.disconnect() },
      { name: 'bus', close: () => bus.close() },
    ],
    config.SHUTDOWN_DRAIN_MS,
  );
}
