import { loadConfigOrExit, redisTarget } from '@server/config';
import { presentOrder } from '@server/modules/orders/orders.service';
import { openDatabase } from '@infra/db';
import { createLogger } from '@infra/logger';
import { createMetrics } from '@server/platform/metrics';
import { lagWindow, startProcessReporter } from '@server/platform/process-reports';
import { openBus } from '@infra/bus';
import { commandRedis } from '@server/platform/redis';
import { closeServer, installShutdown, listen } from '@server/platform/lifecycle';
import { findProduct } from '@sim/index';
import {
  applyNice,
  exitOnFatal,
  openWhenReachable,
  startingServer,
} from '@server/platform/startup';
import { redisUserEvents } from '@server/platform/user-events';
import { healthApp, serveMetrics, watchProcess } from './process-helpers';
import { busWakes } from '@server/modules/orders/settlement-wake';
import { startObservedSettlement } from './settlement-observers';
import { composeAccounts } from './compose';

/**
 * A settlement worker on its own (the api role runs one too). Any number may run against one
 * database: each due order is claimed by exactly one of them.
 */
const config = loadConfigOrExit('worker');
const log = createLogger(config.LOG_LEVEL, 'worker');
exitOnFatal(log);
applyNice(config.PROCESS_NICE, log);
// Listening at once, not ready (503) until the database is open.
const { server, serve } = startingServer();
const port = await listen(server, config.PORT, config.HOST);
const db = await openWhenReachable('database', () => openDatabase(config), log);
const target = redisTarget(config);
const redis = target ? commandRedis(target, 'worker', log) : null;
const userEvents = redis
  ? redisUserEvents(redis, config.REDIS_NAMESPACE, log)
  : { emit: () => undefined, endSessions: () => undefined };

// The `balance` events it sends carry the same figures as the api's (practice ones included).
const { balancesChanged } = composeAccounts(config, db, userEvents);
const metrics = createMetrics('worker');
// Its settlement lags reach the operators' dashboard over the bus (process-reports.ts).
const bus = config.REDIS_URL ? openBus(redisTarget(config), log, config.REDIS_NAMESPACE) : null;
const lags = lagWindow();
const worker = startObservedSettlement(
  config,
  {
    db,
    orders: { present: (row) => presentOrder(row, findProduct(row.product_id)?.precision ?? 2) },
    userEvents,
    balancesChanged,
    log,
    // Without Redis nothing is heard of other processes: the safety poll is the fallback.
    wakes: bus ? busWakes(bus) : undefined,
  },
  metrics,
  lags,
);
watchProcess(metrics, db);
if (redis) metrics.watchRedis('emitter', () => redis.status === 'ready');
const reporter = bus
  ? startProcessReporter({ bus, role: 'worker', settlement: lags.read, log })
  : null;
serve(healthApp({ database: () => db.ping() }, log));
const metricsListener = await serveMetrics(config, metrics.registry, log);
log.info({ host: config.HOST, port, database: db.kind }, 'settlement worker ready');

installShutdown(
  log,
  config.SHUTDOWN_TIMEOUT_MS,
  [
    { name: 'http', close: () => closeServer(server) },
    { name: 'metrics', close: () => metricsListener?.close() },
    { name: 'worker', close: () => worker.stop() },
    { name: 'report', close: () => reporter?.stop() },
    { name: 'bus', close: () => bus?.close() },
    { name: 'redis', close: () => redis?.disconnect() },
    { name: 'database', close: () => db.close() },
  ],
  config.SHUTDOWN_DRAIN_MS,
);
