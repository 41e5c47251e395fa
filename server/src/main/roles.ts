import http from 'node:http';
import express from 'express';
import { Redis } from 'ioredis';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Config } from '@server/config';
import { createGateway, type Gateway } from '@server/gateway/gateway';
import {
  lateUserEvents,
  redisUserEvents,
  socketIoKey,
  type UserEvents,
} from '@server/platform/user-events';
import { startRevealJob } from '@server/modules/market/fairness.service';
import { seedWelcomeInviteOnce } from '@server/modules/auth/auth.seed';
import { operatorTokenFile, resolveOperatorToken } from '@server/modules/operator/operator-token';
import { sha256 } from '@server/platform/http/auth';
import { startSettlementWorker } from '@server/modules/orders/settlement.worker';
import { countSettlementBacklog } from '@server/modules/orders/orders.repo';
import { startLedgerCheckJob } from '@server/modules/ledger/ledger-check.job';
import { seedContentOnce } from '@server/modules/content/seed';
import { createIdempotencyPruner } from '@server/platform/idempotency';
import { createMetrics, metricsServer, type Metrics } from '@server/platform/metrics';
import { lagWindow } from '@server/platform/process-reports';
import { closeServer, listen } from '@server/platform/lifecycle';
import type { Bus } from '@infra/bus';
import type { Db } from '@infra/db';
import { requestLog } from '@server/platform/http/request-log';
import { healthRoutes } from '@server/platform/http/health';
import type { Logger } from '@infra/logger';
import { defaultCatalogue, holdLease, startFeed, type Lease } from '@sim/index';
import { composeApi } from './compose';

/** The pieces each entry point assembles; `all.ts` uses every one on a single HTTP server. */

/**
 * The simulator under its lease (market-sim/src/lease.ts): it leads when no other simulator on
 * the database does, and otherwise waits as a hot standby that takes over when the leader stops
 * renewing. `metrics` shows which one leads.
 */
export function startSim(
  config: Config,
  db: Db,
  bus: Bus,
  log: Logger,
  metrics?: Pick<Metrics, 'simLeader' | 'simLeaseEpoch' | 'simTicks' | 'watchTape'>,
): Lease {
  const simLog = log.child({ part: 'sim' });
  const ticks = metrics
    ? new Map(defaultCatalogue.map((p) => [p.id, metrics.simTicks.labels({ product: p.id })]))
    : null;
  return holdLease(
    {
      db,
      ttlMs: config.SIM_LEASE_MS,
      pollMs: Math.max(100, Math.floor(config.SIM_LEASE_MS / 6)),
      log: simLog,
      onChange: (state, epoch) => {
        metrics?.simLeader.set(state === 'leader' ? 1 : 0);
        metrics?.simLeaseEpoch.set(epoch);
      },
    },
    (lease) =>
      startFeed({
        db,
        bus,
        catalogue: defaultCatalogue,
        seed: config.SIM_SEED,
        randomness:
          config.SIM_RANDOMNESS === 'seeded'
            ? { kind: 'seeded' }
            : { kind: 'committed', periodMs: config.SIM_PERIOD_MINUTES * 60_000 },
        ticksPerSecond: config.SIM_TICKS_PER_SECOND,
        backfillHours: config.SIM_BACKFILL_HOURS,
        historyDays: config.SIM_HISTORY_DAYS,
        retentionHours: config.TICK_RETENTION_HOURS,
        flushMs: config.TAPE_FLUSH_MS,
        log: simLog,
        lease,
        onTick: ticks ? (productId) => ticks.get(productId)?.inc() : undefined,
        onTape: metrics ? (tape) => metrics.watchTape(tape) : undefined,
      }),
  );
}

export async function startApi(
  config: Config,
  db: Db,
  bus: Bus,
  log: Logger,
  {
    embedded = false,
    metrics = createMetrics('api'),
  }: { embedded?: boolean; metrics?: Metrics } = {},
) {
  // Throttles (logins, registrations, confirmations, deposits) are shared through Redis when
  // several api processes run.
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 })
    : undefined;
  redis?.on('error', (err: Error) => log.warn({ err: err.message }, 'redis (limiter) error'));
  if (redis) metrics.watchRedis('limiter', () => redis.status === 'ready');
  watchProcess(metrics, db, bus);
  const keyPrefix = `${config.REDIS_NAMESPACE}:throttle`;
  // Scaled: reach users' sockets on any gateway through the Redis emitter. Embedded: all.ts
  // points these events at its own Socket.IO server once it exists.
  const userEvents: UserEvents & { bind?: (io: Gateway['io']) => void } = redis
    ? redisUserEvents(redis, config.REDIS_NAMESPACE)
    : lateUserEvents();
  const operator = await resolveOperatorToken(db, {
    configured: config.OPERATOR_TOKEN,
    dataDir: config.DATA_DIR,
    embedded,
  });
  // The token itself never goes to the log (logs are shipped, kept and read by many): only
  // where to find it, a file only this user can read.
  if (operator.created)
    log.info(
      { file: operatorTokenFile(config.DATA_DIR) },
      `operator token generated; read it from ${operatorTokenFile(config.DATA_DIR)} (mode 0600)`,
    );
  if (!operator.hash) log.warn('no OPERATOR_TOKEN: operator endpoints are closed');
  // A rotation in progress: the replaced token keeps working until it is removed (the config
  // accepts OPERATOR_TOKEN_PREVIOUS only beside OPERATOR_TOKEN).
  const operatorTokenHashes =
    operator.hash && config.OPERATOR_TOKEN_PREVIOUS
      ? [operator.hash, sha256(config.OPERATOR_TOKEN_PREVIOUS)]
      : operator.hash;
  if (config.OPERATOR_TOKEN_PREVIOUS)
    log.info('operator token rotation: OPERATOR_TOKEN_PREVIOUS is still accepted');
  if (embedded && (await seedWelcomeInviteOnce(db)))
    log.info('invitation code for the first accounts: WELCOME');
  if (embedded && (await seedContentOnce(db)))
    log.info('seeded Home banners, highlights, news and text pages in every language');

  const api = await composeApi(config, db, bus, {
    userEvents,
    metrics,
    log,
    throttles: { keyPrefix, redis },
    operatorTokenHash: operatorTokenHashes,
  });
  const { market, orders, fairness, savingsJob, balancesChanged, testClock, board } = api;
  // The last minute's settlement lags, for the operators' dashboard (process-reports.ts).
  const lags = lagWindow();
  if (testClock) log.warn('TEST_CLOCK=1: the platform clock can be moved through /api/test/clock');
  // Every api process reveals the secrets of periods no open order depends on any more.
  const revealJob = startRevealJob(fairness, 5000, log);
  // Every api process settles; the claims (SKIP LOCKED) keep them from settling one order twice.
  const worker =
    config.SETTLEMENT_WORKER === 'on'
      ? startSettlementWorker({
          db,
          orders,
          userEvents,
          balancesChanged,
          maxFeedDelayMs: config.MAX_FEED_DELAY_MS,
          batchSize: config.SETTLE_BATCH_SIZE,
          log: log.child({ part: 'settlement' }),
          onSettled: (lagMs, status, mode) => {
            lags.add(lagMs);
            metrics.settlementLag.observe(lagMs / 1000);
            metrics.settled.inc({ status, mode });
          },
          onEntry: (lagMs, outcome, mode) => {
            if (outcome === 'entered') metrics.entryLag.observe(lagMs / 1000);
            else metrics.settled.inc({ status: 'void', mode });
          },
        })
      : null;
  if (worker) metrics.watchSettlementBacklog(() => countSettlementBacklog(db));
  const ledgerCheck = startLedgerCheckJob({
    db,
    everyMs: config.LEDGER_CHECK_MINUTES * 60_000,
    log: log.child({ part: 'ledger-check' }),
    metrics,
  });
  ledgerCheck.start();
  savingsJob.start();
  // Every api process prunes; SKIP LOCKED lets them share the work (platform/idempotency.ts).
  const pruner = createIdempotencyPruner({ db, log: log.child({ part: 'idempotency' }) });
  pruner.start();
  return {
    app: api.app,
    market,
    auth: api.auth,
    userEvents,
    /** The settlement lags of the last minute, when this process settles. */
    settlementLags: worker ? lags : null,
    close: async () => {
      await board.close();
      await worker?.stop();
      await revealJob.stop();
      await savingsJob.stop();
      await pruner.stop();
      await ledgerCheck.stop();
      await market.close();
      redis?.disconnect();
    },
  };
}

export async function attachGateway(
  server: http.Server,
  bus: Bus,
  log: Logger,
  opts: {
    authenticate?: (token: string) => Promise<string | null>;
    redisUrl?: string;
    namespace?: string;
    metrics?: Metrics;
    /** Socket limits per address and per socket, and TRUST_PROXY. */
    config: Pick<
      Config,
      | 'SOCKET_CONNECT_RATE'
      | 'SOCKET_MAX_PER_ADDRESS'
      | 'TRUST_PROXY'
      | 'SOCKET_CONFLATE_BYTES'
      | 'SOCKET_DISCONNECT_BYTES'
    >;
  },
): Promise<Gateway> {
  const gateway = await createGateway(server, {
    bus,
    log: log.child({ part: 'gateway' }),
    productIds: new Set(defaultCatalogue.map((p) => p.id)),
    authenticate: opts.authenticate,
    metrics: opts.metrics,
    connectionLimits: {
      perMinute: opts.config.SOCKET_CONNECT_RATE,
      maxPerAddress: opts.config.SOCKET_MAX_PER_ADDRESS,
    },
    trustProxy: opts.config.TRUST_PROXY,
    backlog: {
      conflateBytes: opts.config.SOCKET_CONFLATE_BYTES,
      disconnectBytes: opts.config.SOCKET_DISCONNECT_BYTES,
    },
  });
  if (opts.redisUrl) {
    // The adapter carries only user events (from the api's emitter); ticks never go through it.
    const pub = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
    const sub = pub.duplicate();
    for (const c of [pub, sub])
      c.on('error', (err: Error) => log.warn({ err: err.message }, 'redis (adapter) error'));
    opts.metrics?.watchRedis('adapter', () => pub.status === 'ready' && sub.status === 'ready');
    gateway.io.adapter(createAdapter(pub, sub, { key: socketIoKey(opts.namespace ?? 'trade') }));
  }
  return gateway;
}

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
