import type { Redis } from 'ioredis';
import { redisTarget, type Config } from '@server/config';
import { commandRedis } from '@server/platform/redis';
import type { Gateway } from '@server/gateway/gateway';
import {
  lateUserEvents,
  redisUserEvents,
  type ReplaySource,
  type UserEvents,
} from '@server/platform/user-events';
import {
  memoryRevokedSessions,
  recordingRevocations,
  redisRevokedSessions,
} from '@server/platform/revoked-sessions';
import { startRevealJob } from '@server/modules/market/fairness.service';
import { startAlertJob } from '@server/modules/alerts/alerts.service';
import { seedWelcomeInviteOnce } from '@server/modules/auth/auth.seed';
import { operatorTokenFile, resolveOperatorToken } from '@server/modules/operator/operator-token';
import { sha256 } from '@server/platform/http/auth';
import { startLedgerCheckJob } from '@server/modules/ledger/ledger-check.job';
import { seedContentOnce } from '@server/modules/content/seed';
import { createIdempotencyPruner } from '@server/platform/idempotency';
import { createMetrics, type Metrics } from '@server/platform/metrics';
import { lagWindow } from '@server/platform/process-reports';
import type { Bus } from '@infra/bus';
import type { Db } from '@infra/db';
import type { Logger } from '@infra/logger';
import { chainSources } from '@server/modules/wallet/chain/sources';
import { composeApi } from './compose';
import { startWatchers } from './watcher-role';
import { busWakes } from '@server/modules/orders/settlement-wake';
import { startObservedSettlement } from './settlement-observers';
import { watchProcess } from './process-helpers';

/** The api role: the HTTP app, its background jobs and settlement; `all.ts` embeds it too. */

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
  const { revokedSessions, userEvents } = sessionEvents(config, redis, log);
  const operatorTokenHashes = await operatorTokens(config, db, log, embedded);
  if (embedded) await seedEmbedded(db, log);

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
  // Every api process evaluates price alerts on the tape; the firing is conditional, so an alert
  // fires once however many evaluate at once (DECISIONS, Price alerts).
  const alertJob = startAlertJob(
    api.alerts,
    config.ALERT_EVALUATE_MS,
    log.child({ part: 'alerts' }),
  );
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
            wakes: busWakes(bus),
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
  // Every api process applies due two-factor resets; each is claimed in a transaction, once.
  api.twoFactorResets.job.start();
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
      await alertJob.stop();
      await savingsJob.stop();
      await api.twoFactorResets.job.stop();
      await pruner.stop();
      await watchers?.stop();
      await ledgerCheck.stop();
      await market.close();
      redis?.disconnect();
    },
  };
}

/**
 * Where users' events go and where ended sessions are recorded. Scaled: reach users' sockets on
 * any gateway through the Redis emitter. Embedded: all.ts points these events at its own
 * Socket.IO server once it exists. Every ended session is recorded before its sockets are told,
 * so no gateway admits a ticket of it afterwards (socket tickets); in Redis when gateways run
 * apart, else in this process.
 */
function sessionEvents(config: Config, redis: Redis | undefined, log: Logger) {
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
  return { revokedSessions, userEvents };
}

/** The embedded app's first run: the WELCOME invitation and the seeded content. */
async function seedEmbedded(db: Db, log: Logger) {
  if (await seedWelcomeInviteOnce(db)) log.info('invitation code for the first accounts: WELCOME');
  if (await seedContentOnce(db))
    log.info('seeded Home banners, highlights, news and text pages in every language');
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
