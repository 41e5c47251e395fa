import { loadConfigOrExit, redisTarget } from '@server/config';
import { openDatabase } from '@infra/db';
import { createLogger } from '@infra/logger';
import { createMetrics } from '@server/platform/metrics';
import { commandRedis } from '@server/platform/redis';
import { closeServer, installShutdown, listen } from '@server/platform/lifecycle';
import {
  applyNice,
  exitOnFatal,
  openWhenReachable,
  startingServer,
} from '@server/platform/startup';
import { redisUserEvents } from '@server/platform/user-events';
import { chainSources } from '@server/modules/wallet/chain/sources';
import { healthApp, serveMetrics, watchProcess } from './process-helpers';
import { composeAccounts } from './compose';
import { startWatchers } from './watcher-role';

/**
 * The chain watcher (docs/OPERATIONS.md, USDT deposits by address): follows each configured
 * network's node (ETH_RPC_URL, TRON_API_URL) and credits USDT transfers to users' addresses once
 * confirmed. Any number may run: one follows each network, the others stand by.
 */
const config = loadConfigOrExit('watcher');
const log = createLogger(config.LOG_LEVEL, 'watcher');
exitOnFatal(log);
applyNice(config.PROCESS_NICE, log);
const sources = chainSources(config);
if (!Object.keys(sources).length)
  log.warn('no chain node configured (ETH_RPC_URL, TRON_API_URL): nothing to watch');
const { server, serve } = startingServer();
const port = await listen(server, config.PORT, config.HOST);
const db = await openWhenReachable('database', () => openDatabase(config), log);
const target = redisTarget(config);
const redis = target ? commandRedis(target, 'watcher', log) : null;
const userEvents = redis
  ? redisUserEvents(redis, config.REDIS_NAMESPACE, log)
  : { emit: () => undefined, endSessions: () => undefined };
// The `balance` events it sends carry the same figures as the api's.
const { summaries } = composeAccounts(config, db, userEvents);
const metrics = createMetrics('watcher');
watchProcess(metrics, db);
if (redis) metrics.watchRedis('emitter', () => redis.status === 'ready');
const watchers = startWatchers({ config, db, sources, userEvents, summaries, metrics, log });
serve(healthApp({ database: () => db.ping() }, log));
const metricsListener = await serveMetrics(config, metrics.registry, log);
log.info({ host: config.HOST, port, networks: watchers.networks }, 'chain watcher ready');

installShutdown(
  log,
  config.SHUTDOWN_TIMEOUT_MS,
  [
    { name: 'http', close: () => closeServer(server) },
    { name: 'metrics', close: () => metricsListener?.close() },
    { name: 'watchers', close: () => watchers.stop() },
    { name: 'redis', close: () => redis?.disconnect() },
    { name: 'database', close: () => db.close() },
  ],
  config.SHUTDOWN_DRAIN_MS,
);
