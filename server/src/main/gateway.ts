import { loadConfigOrExit } from '@server/config';
import { openBus } from '@server/platform/bus';
import { createLogger } from '@server/platform/logger';
import { createMetrics } from '@server/platform/metrics';
import { installShutdown, listen } from '@server/platform/lifecycle';
import { attachGateway, authenticateViaApi, healthServer, serveMetrics } from './roles';

/** The gateway role: Socket.IO only, no database. Scale out freely behind a load balancer. */
const config = loadConfigOrExit('gateway');
const log = createLogger(config.LOG_LEVEL, 'gateway');
if (!config.REDIS_URL)
  log.warn('REDIS_URL is not set: this gateway hears no simulator in another process');
const bus = openBus(config.REDIS_URL, log, config.REDIS_NAMESPACE);

const metrics = createMetrics('gateway');
const server = healthServer({ bus: () => bus.ready() });
const gateway = await attachGateway(server, bus, log, {
  authenticate: config.API_URL ? authenticateViaApi(config.API_URL) : undefined,
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
const metricsListener = await serveMetrics(config, metrics, log);
log.info({ host: config.HOST, port, bus: bus.kind }, 'gateway ready');

installShutdown(log, config.SHUTDOWN_TIMEOUT_MS, [
  { name: 'gateway', close: () => gateway.close() },
  { name: 'metrics', close: () => metricsListener?.close() },
  { name: 'bus', close: () => bus.close() },
]);
