import { Redis } from 'ioredis';
import { loadConfigOrExit } from '@server/config';
import { presentOrder } from '@server/modules/orders/orders.service';
import { startSettlementWorker } from '@server/modules/orders/settlement.worker';
import { createAccountSummaries } from '@server/modules/wallet/summary';
import { openDatabase } from '@server/platform/db';
import { createLogger } from '@server/platform/logger';
import { createMetrics } from '@server/platform/metrics';
import { closeServer, installShutdown, listen } from '@server/platform/lifecycle';
import { findProduct } from '@sim/catalogue';
import { healthServer, redisUserEvents, serveMetrics } from './roles';

/**
 * A settlement worker on its own (the api role runs one too). Any number may run against one
 * database: each due order is claimed by exactly one of them.
 */
const config = loadConfigOrExit('worker');
const log = createLogger(config.LOG_LEVEL, 'worker');
const db = await openDatabase(config);
const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 }) : null;
redis?.on('error', (err: Error) => log.warn({ err: err.message }, 'redis (emitter) error'));
const userEvents = redis
  ? redisUserEvents(redis, config.REDIS_NAMESPACE)
  : { emit: () => undefined, endSessions: () => undefined };

const summaries = createAccountSummaries({
  db,
  userEvents,
  offsetMinutes: config.PLATFORM_UTC_OFFSET_MINUTES,
});
const metrics = createMetrics('worker');
const worker = startSettlementWorker({
  db,
  orders: { present: (row) => presentOrder(row, findProduct(row.product_id)?.precision ?? 2) },
  userEvents,
  balancesChanged: (ids) => ids.forEach((id) => void summaries.publish(id)),
  maxFeedDelayMs: config.MAX_FEED_DELAY_MS,
  batchSize: config.SETTLE_BATCH_SIZE,
  log,
  onSettled: (lagMs, status) => {
    metrics.settlementLag.observe(lagMs / 1000);
    metrics.settled.inc({ status });
  },
});
const server = healthServer({ database: () => db.ping() }, log);
const port = await listen(server, config.PORT, config.HOST);
const metricsListener = await serveMetrics(config, metrics.registry, log);
log.info({ host: config.HOST, port, database: db.kind }, 'settlement worker ready');

installShutdown(log, config.SHUTDOWN_TIMEOUT_MS, [
  { name: 'http', close: () => closeServer(server) },
  { name: 'metrics', close: () => metricsListener?.close() },
  { name: 'worker', close: () => worker.stop() },
  { name: 'redis', close: () => redis?.disconnect() },
  { name: 'database', close: () => db.close() },
]);
