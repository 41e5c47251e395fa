import http from 'node:http';
import express from 'express';
import { createAdapter } from '@socket.io/redis-adapter';
import { redisTarget, type Config } from '@server/config';
import { connectRedis, type RedisTarget } from '@infra/redis';
import { commandRedis } from '@server/platform/redis';
import { createGateway, type Gateway } from '@server/gateway/gateway';
import { catchUpAfterLoss } from '@server/gateway/catch-up';
import {
  lateUserEvents,
  redisReplay,
  redisUserEvents,
  socketIoKey,
  type ReplaySource,
  type UserEvents,
} from '@server/platform/user-events';
import {
  memoryRevokedSessions,
  recordingRevocations,
  redisRevokedSessions,
  type RevokedSessions,
} from '@server/platform/revoked-sessions';
import { createTicketSigner } from '@server/gateway/socket-ticket';
import { startRevealJob } from '@server/modules/market/fairness.service';
import { seedWelcomeInviteOnce } from '@server/modules/auth/auth.seed';
import { operatorTokenFile, resolveOperatorToken } from '@server/modules/operator/operator-token';
import { sha256 } from '@server/platform/http/auth';
import {
  startSettlementWorker,
  type SettledFacts,
  type WorkerDeps,
} from '@server/modules/orders/settlement.worker';
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
import { defaultCatalogue } from '@sim/index';
import { tradeModes, type OrderStatus, type VoidReason } from '@shared/orders';
import { chainSources } from '@server/modules/wallet/chain/sources';
import { composeApi } from './compose';
import { startWatchers } from './watcher-role';

/** The pieces each entry point assembles; `all.ts` uses every one on a single HTTP server. */

export async function startApi(
  config: Config,
  db: Db,
  bus: Bus,
  log: Logger,
  {
    embedded = false,
    metrics = createMetrics('api'),
    settlementDb = db,
  }: {
    embedded?: boolean;
    metrics?: Metrics;
    /**
     * The settlement worker's connection, when it has one of its own (the embedded database's
     * `system` lane, served before request work).
     */
    settlementDb?: Db;
  } = {},
) {
  // Throttles (logins, registrations, confirmations, deposits) are shared through Redis when
  // several api processes run.
  const target = redisTarget(config);
  const redis = target ? commandRedis(target, 'api', log) : undefined;
  if (redis) metrics.watchRedis('limiter', () => redis.status === 'ready');
  watchProcess(metrics, db, bus);
  const keyPrefix = `${config.REDIS_NAMESPACE}:throttle`;
  // Scaled: reach users' sockets on any gateway through the Redis emitter. Embedded: all.ts
  // points these events at its own Socket.IO server once it exists.
  // Every ended session is recorded before its sockets are told, so no gateway admits a ticket
  // of it afterwards (socket tickets); in Redis when gateways run apart, else in this process.
  const revokedSessions = redis
    ? redisRevokedSessions(redis, config.REDIS_NAMESPACE, config.SOCKET_TICKET_TTL_MS)
    : memoryRevokedSessions(config.SOCKET_TICKET_TTL_MS);
  const userEvents: UserEvents & { bind?: (io: Gateway['io']) => void; replay?: ReplaySource } =
    recordingRevocations(
      redis ? redisUserEvents(redis, config.REDIS_NAMESPACE, log) : lateUserEvents(),
      revokedSessions,
      config.SOCKET_TICKET_TTL_MS,
      log,
    );
  const operatorTokenHashes = await operatorTokens(config, db, log, embedded);
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
      ? startObservedSettlement(
          config,
          {
            db: settlementDb,
            orders,
            userEvents,
            balancesChanged,
            log: log.child({ part: 'settlement' }),
          },
          metrics,
          lags,
          db,
        )
      : null;
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
  // The embedded app follows the configured chain nodes itself; scaled, the watcher role does.
  const sources = chainSources(config);
  const watchers =
    embedded && Object.keys(sources).length
      ? startWatchers({
          config,
          db,
          sources,
          userEvents,
          summaries: api.summaries,
          metrics,
          log: log.child({ part: 'watcher' }),
        })
      : null;
  return {
    app: api.app,
    market,
    auth: api.auth,
    userEvents,
    /** The sessions ended lately, for an embedded gateway's ticket checks. */
    revokedSessions,
    /** The settlement lags of the last minute, when this process settles. */
    settlementLags: worker ? lags : null,
    close: async () => {
      await board.close();
      await worker?.stop();
      await revealJob.stop();
      await savingsJob.stop();
      await pruner.stop();
      await watchers?.stop();
      await ledgerCheck.stop();
      await market.close();
      redis?.disconnect();
    },
  };
}

/**
 * The hashes of the accepted operator tokens (null keeps /api/ops closed), with what the log
 * says of them.
 */
async function operatorTokens(config: Config, db: Db, log: Logger, embedded: boolean) {
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
  const hashes =
    operator.hash && config.OPERATOR_TOKEN_PREVIOUS
      ? [operator.hash, sha256(config.OPERATOR_TOKEN_PREVIOUS)]
      : operator.hash;
  if (config.OPERATOR_TOKEN_PREVIOUS)
    log.info('operator token rotation: OPERATOR_TOKEN_PREVIOUS is still accepted');
  return hashes;
}

export async function attachGateway(
  server: http.Server,
  bus: Bus,
  log: Logger,
  opts: {
    authenticate?: (token: string) => Promise<string | null>;
    redis?: RedisTarget;
    namespace?: string;
    metrics?: Metrics;
    /**
     * Where ended sessions are recorded, for socket tickets: with SOCKET_TICKET_SECRET and this,
     * the gateway issues and admits tickets. Absent, it checks every token with `authenticate`.
     */
    revokedSessions?: RevokedSessions;
    /** How long closing spreads the sockets' disconnects over (GATEWAY_DRAIN_MS); default 0. */
    drainMs?: number;
    /**
     * Where missed user events are replayed from: the embedded api's memory; else, with Redis,
     * the users' streams there.
     */
    replay?: ReplaySource;
    /** Socket limits per address and per socket, TRUST_PROXY, and the socket tickets' key. */
    config: Pick<
      Config,
      | 'SOCKET_TICKET_SECRET'
      | 'SOCKET_TICKET_TTL_MS'
      | 'SOCKET_CONNECT_RATE'
      | 'SOCKET_MAX_PER_ADDRESS'
      | 'TRUST_PROXY'
      | 'SOCKET_CONFLATE_BYTES'
      | 'SOCKET_DISCONNECT_BYTES'
    >;
  },
): Promise<Gateway> {
  const reader = opts.replay || !opts.redis ? null : commandRedis(opts.redis, 'gateway', log);
  const gateway = await createGateway(server, {
    bus,
    replay: opts.replay ?? (reader ? redisReplay(reader, opts.namespace ?? 'trade') : undefined),
    log: log.child({ part: 'gateway' }),
    productIds: new Set(defaultCatalogue.map((p) => p.id)),
    authenticate: opts.authenticate,
    tickets:
      opts.config.SOCKET_TICKET_SECRET && opts.revokedSessions
        ? {
            signer: createTicketSigner(
              opts.config.SOCKET_TICKET_SECRET,
              opts.config.SOCKET_TICKET_TTL_MS,
            ),
            revoked: opts.revokedSessions,
          }
        : undefined,
    drainMs: opts.drainMs,
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
  if (opts.redis) {
    // The adapter carries only user events (from the api's emitter); ticks never go through it.
    const pub = connectRedis(opts.redis, { maxRetriesPerRequest: null });
    // No INFO ready check on the subscriber (redis/ioredis#2037; infra/src/bus/redis.ts).
    const sub = pub.duplicate({ enableReadyCheck: false });
    for (const c of [pub, sub])
      c.on('error', (err: Error) => log.warn({ err: err.message }, 'redis (adapter) error'));
    opts.metrics?.watchRedis('adapter', () => pub.status === 'ready' && sub.status === 'ready');
    gateway.io.adapter(createAdapter(pub, sub, { key: socketIoKey(opts.namespace ?? 'trade') }));
    catchUpAfterLoss(sub, gateway, log);
  }
  if (!reader) return gateway;
  return {
    ...gateway,
    close: async () => {
      await gateway.close();
      reader.disconnect();
    },
  };
}

const settledStatuses: OrderStatus[] = ['won', 'lost', 'draw', 'void'];
const voidReasons: VoidReason[] = ['FEED_STALE', 'NO_ENTRY_TICK'];

/**
 * What a settlement worker tells the metrics (and the dashboard's lag window) of each decided
 * order: its lag, its result per product and mode, and why it was void.
 */
export function settlementObservers(
  metrics: Pick<Metrics, 'settlementLag' | 'settled' | 'voided' | 'entryLag'>,
  lags: ReturnType<typeof lagWindow>,
): Pick<WorkerDeps, 'onSettled' | 'onEntry'> {
  // Every product's series from the start, at 0. A counter series that first appears at its
  // first increment hides that increment from increase() and rate(): a burst of voids after a
  // restart would be invisible to VoidRate.
  for (const { id: product } of defaultCatalogue)
    for (const mode of tradeModes) {
      for (const status of settledStatuses) metrics.settled.inc({ status, mode, product }, 0);
      for (const reason of voidReasons) metrics.voided.inc({ reason, product, mode }, 0);
    }
  const count = (o: SettledFacts) => {
    metrics.settled.inc({ status: o.status, mode: o.mode, product: o.productId });
    if (o.status === 'void')
      metrics.voided.inc({ reason: o.voidReason ?? 'unknown', product: o.productId, mode: o.mode });
  };
  return {
    onSettled(lagMs, order) {
      lags.add(lagMs);
      metrics.settlementLag.observe(lagMs / 1000);
      count(order);
    },
    onEntry(lagMs, outcome, order) {
      if (outcome === 'entered') metrics.entryLag.observe(lagMs / 1000);
      else count(order);
    },
  };
}

/**
 * A settlement worker wired the one way every process runs it (the api's and the worker role's):
 * the configured batch and feed delay, its decisions observed by the metrics and the lag window,
 * and the orders it owes counted when scraped (on `backlogDb`, the worker's own connection
 * unless told otherwise).
 */
export function startObservedSettlement(
  config: Pick<Config, 'MAX_FEED_DELAY_MS' | 'SETTLE_BATCH_SIZE'>,
  deps: Pick<WorkerDeps, 'db' | 'orders' | 'userEvents' | 'balancesChanged' | 'log'>,
  metrics: Pick<
    Metrics,
    'settlementLag' | 'settled' | 'voided' | 'entryLag' | 'watchSettlementBacklog'
  >,
  lags: ReturnType<typeof lagWindow>,
  backlogDb: Db = deps.db,
) {
  const worker = startSettlementWorker({
    ...deps,
    maxFeedDelayMs: config.MAX_FEED_DELAY_MS,
    batchSize: config.SETTLE_BATCH_SIZE,
    ...settlementObservers(metrics, lags),
  });
  metrics.watchSettlementBacklog(() => countSettlementBacklog(backlogDb));
  return worker;
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
