import http from 'node:http';
import express from 'express';
import type { Config } from '@server/config';
import { metricsServer, type Metrics } from '@server/platform/metrics';
import { closeServer, listen } from '@server/platform/lifecycle';
import type { Bus } from '@infra/bus';
import type { Db } from '@infra/db';
import { requestLog } from '@server/platform/http/request-log';
import { healthRoutes } from '@server/platform/http/health';
import type { Logger } from '@infra/logger';

/** What every role serves and reports besides its work: health, metrics, its connections' state. */

/**
 * What every role with a database and a bus reports when scraped: the database pool's use
 * (PostgreSQL) and whether the bus's Redis connections are ready.
 */
export function watchProcess(
  metrics: Pick<Metrics, 'watchDbPool' | 'watchRedis'>,
  db: Pick<Db, 'poolStats'>,
  bus?: Pick<Bus, 'kind' | 'ready'>,
) {
  if (db.poolStats) metrics.watchDbPool(() => db.poolStats?.() ?? null);
  if (bus?.kind === 'redis') metrics.watchRedis('bus', () => bus.ready());
}

/** `/healthz` and `/readyz` alone (roles without an api): see `healthRoutes`; requests logged. */
export function healthApp(
  checks: Parameters<typeof healthRoutes>[0],
  log: Logger,
  shown?: Parameters<typeof healthRoutes>[1],
): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLog(log));
  app.use(healthRoutes(checks, shown));
  return app;
}

export function healthServer(
  checks: Parameters<typeof healthRoutes>[0],
  log: Logger,
  shown?: Parameters<typeof healthRoutes>[1],
): http.Server {
  return http.createServer(healthApp(checks, log, shown));
}

/**
 * The process's /metrics on its private listener, when METRICS_PORT is set (on METRICS_HOST,
 * else HOST). Returns what shutdown closes, or null when metrics are not served.
 */
export async function serveMetrics(
  config: Pick<Config, 'METRICS_PORT' | 'METRICS_HOST' | 'HOST'>,
  source: Parameters<typeof metricsServer>[0],
  log: Logger,
): Promise<{ port: number; close: () => Promise<void> } | null> {
  if (config.METRICS_PORT === undefined) return null;
  const server = metricsServer(source);
  const host = config.METRICS_HOST ?? config.HOST;
  const port = await listen(server, config.METRICS_PORT, host);
  log.info({ host, port }, 'metrics served on the private listener');
  return { port, close: () => closeServer(server) };
}
