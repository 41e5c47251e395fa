import type { Redis } from 'ioredis';
import type { Config } from '@server/config';
import type { GateLimits } from '@server/platform/concurrency-gate';
import { createApiApp } from '@server/app';
import type { Bus } from '@infra/bus';
import type { Db } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { OperatorTokenHashes } from '@server/platform/http/auth';
import type { Metrics } from '@server/platform/metrics';
import type { UserEvents } from '@server/platform/user-events';
import { movableClock, systemClock, type Clock } from '@server/platform/clock';
import type { AuditWriter } from '@server/platform/http/operator-gate';
import { createLimiter, createLimiters, type LimitSpec } from '@server/platform/rate-limit';
import { createCheckLimiter } from '@server/platform/check-limiter';
import { defaultCatalogue } from '@sim/index';
import { authLimits, confirmLimit, twoFactorLimits } from '@server/modules/auth/auth.limits';
import { createAuthService } from '@server/modules/auth/auth.service';
import { openPlaces } from '@server/platform/geoip';
import { createContentService } from '@server/modules/content/content.service';
import { createMessagesService } from '@server/modules/content/messages.service';
import { identityChecks } from '@server/modules/kyc/identity';
import { createKycService } from '@server/modules/kyc/kyc.service';
import { createFairnessService } from '@server/modules/market/fairness.service';
import { createFavouritesService } from '@server/modules/market/favourites.service';
import { createAlertsService } from '@server/modules/alerts/alerts.service';
import { createDrawingsService } from '@server/modules/drawings/drawings.service';
import { createMarketService } from '@server/modules/market/market.service';
import { orderFigures } from '@server/modules/orders/order-figures';
import { createOrdersService } from '@server/modules/orders/orders.service';
import { orderSignals } from '@server/modules/orders/settlement-wake';
import { createOperatorsService } from '@server/modules/operator/operators.service';
import { operatorLoginLimits } from '@server/modules/operator/operator-sign-in';
import { createSavingsJob } from '@server/modules/savings/savings.job';
import { savingsPolicy } from '@server/modules/savings/savings.policy';
import { createSavingsService } from '@server/modules/savings/savings.service';
import { createUploadService } from '@server/modules/uploads/upload.service';
import { depositRateLimit } from '@server/modules/wallet/deposit.service';
import { createPracticeService } from '@server/modules/wallet/practice';
import { createAccountSummaries } from '@server/modules/wallet/summary';
import { createWalletService } from '@server/modules/wallet/wallet.service';
import { securityMessages } from '@server/modules/content/security-messages';
import { twoFactorResets } from '@server/modules/auth/two-factor.reset';
import { createDepositAddresses } from '@server/modules/wallet/chain/deposit-addresses';
import type { ChainSources } from '@server/modules/wallet/chain/source';
import { chainSources } from '@server/modules/wallet/chain/sources';
import { processBoard } from '@server/platform/process-reports';

/**
 * The account summaries and what they read, with the `balancesChanged` callback every module
 * that moves money calls after its commit (the `balance` event). Shared by the api and the
 * stand-alone settlement worker, whose `balance` events must carry the same figures.
 */
export function composeAccounts(
  config: Pick<Config, 'PRACTICE_BALANCE' | 'PLATFORM_UTC_OFFSET_MINUTES'>,
  db: Db,
  userEvents: UserEvents,
  now?: () => number,
) {
  const orders = orderFigures(db);
  const identity = identityChecks(db);
  const balancesChanged = (ids: number[]) => ids.forEach((id) => void summaries.publish(id));
  const practice = createPracticeService({
    db,
    balance: config.PRACTICE_BALANCE,
    balancesChanged,
    orders,
  });
  const summaries = createAccountSummaries({
    db,
    orders,
    identity,
    userEvents,
    offsetMinutes: config.PLATFORM_UTC_OFFSET_MINUTES,
    now,
    practice,
  });
  return { identity, practice, summaries, balancesChanged };
}

export interface ComposeApiOptions {
  /** Reaches users' sockets: the Redis emitter (scaled), the embedded gateway, or a recorder. */
  userEvents: UserEvents;
  metrics: Metrics;
  log: Logger;
  /** Where the throttles count: in Redis when several api processes share them. */
  throttles: { keyPrefix: string; redis?: Redis };
  /** SHA-256 of the accepted operator tokens; null keeps /api/ops closed. */
  operatorTokenHash: OperatorTokenHashes | null;
}

/** What tests change: the clock, and the throttles' figures. Production passes none. */
export interface ComposeOverrides {
  /** The wall clock of orders and market data (tests pin it). */
  now?: () => number;
  /** The platform clock of savings; TEST_CLOCK=1 makes it movable through /api/test/clock. */
  clock?: ReturnType<typeof movableClock>;
  authLimits?: Partial<typeof authLimits>;
  confirmLimit?: LimitSpec;
  depositRate?: LimitSpec;
  pendingDepositsMax?: number;
  /** The gate of anonymous market reads (a test that holds reads open waits longer in it). */
  publicReadGate?: GateLimits;
  /** The chain nodes claims are checked against (the configured ones otherwise). */
  chainSources?: ChainSources;
}

/** Where the throttles count (ComposeApiOptions). */
type Throttles = ComposeApiOptions['throttles'];

/** The auth service with its throttles: sign-in's and registration's, and confirmations'. */
function composeAuth(
  config: Config,
  db: Db,
  userEvents: UserEvents,
  identity: ReturnType<typeof composeAccounts>['identity'],
  throttles: Throttles,
  overrides: ComposeOverrides,
) {
  return createAuthService(
    db,
    {
      ...createLimiters({ ...authLimits, ...overrides.authLimits }, throttles),
      confirm: createCheckLimiter({
        ...(overrides.confirmLimit ?? confirmLimit),
        ...throttles,
        keyPrefix: `${throttles.keyPrefix}:confirm`,
      }),
      twoFactor: createCheckLimiter({
        ...twoFactorLimits.place,
        ...throttles,
        keyPrefix: `${throttles.keyPrefix}:2fa`,
      }),
      twoFactorDaily: createCheckLimiter({
        ...twoFactorLimits.daily,
        ...throttles,
        keyPrefix: `${throttles.keyPrefix}:2fa-day`,
      }),
    },
    userEvents,
    identity,
    securityMessages(userEvents),
    config.TERMS_VERSION,
    openPlaces(config.GEOIP_DATABASE),
  );
}

/** The operators service with its sign-in throttles (per name, per address). */
function composeOperators(db: Db, throttles: Throttles) {
  return createOperatorsService(db, {
    perName: createCheckLimiter({
      ...operatorLoginLimits.perName,
      ...throttles,
      keyPrefix: `${throttles.keyPrefix}:ops-login`,
    }),
    perAddress: createLimiter({
      ...operatorLoginLimits.perAddress,
      ...throttles,
      keyPrefix: `${throttles.keyPrefix}:ops-login-address`,
    }),
  });
}

/** Savings on the platform clock: the service, its job, and the movable clock of TEST_CLOCK=1. */
function composeSavings(
  config: Config,
  db: Db,
  balancesChanged: (ids: number[]) => void,
  log: Logger,
  overrides: ComposeOverrides,
) {
  // TEST_CLOCK=1 (browser journeys, tests): a platform clock /api/test/clock can move forward.
  const testClock = config.TEST_CLOCK === '1' ? (overrides.clock ?? movableClock()) : null;
  const clock = overrides.clock ?? testClock ?? systemClock;
  const policy = savingsPolicy(config);
  const savings = createSavingsService({ db, clock, policy, balancesChanged });
  const savingsJob = createSavingsJob({
    db,
    clock,
    policy,
    balancesChanged,
    log: log.child({ part: 'savings' }),
  });
  return { testClock, clock, policy, savings, savingsJob };
}

/** What runs after the test clock moves: the jobs that act on the platform clock. */
const clockJobs = (
  savingsJob: { runOnce(): Promise<unknown> },
  resets: ReturnType<typeof twoFactorResets>,
) => Promise.all([savingsJob.runOnce(), resets.job.runOnce()]);

/** The support reset of two-factor sign-in on the platform clock; the audit log records it. */
function composeResets(
  config: Config,
  db: Db,
  userEvents: UserEvents,
  clock: Clock,
  audit: AuditWriter,
  log: Logger,
) {
  return twoFactorResets({
    db,
    clock,
    delayHours: config.TWO_FACTOR_RESET_DELAY_HOURS,
    messages: securityMessages(userEvents),
    sessions: userEvents,
    audit,
    log: log.child({ part: 'two-factor-reset' }),
  });
}

/**
 * The one place the api's services are built and wired: `startApi` (every api process, and the
 * embedded app) and the tests' `buildTestApi` both call it, so a test runs the services exactly
 * as production wires them. Background jobs (settlement, reveals, pruning, checks) are started
 * by the caller from what it returns.
 */
export async function composeApi(
  config: Config,
  db: Db,
  bus: Bus,
  o: ComposeApiOptions,
  overrides: ComposeOverrides = {},
) {
  const { userEvents, metrics, log, throttles } = o;
  const market = await createMarketService({
    db,
    bus,
    catalogue: defaultCatalogue,
    now: overrides.now,
    earlyClose: {
      spreadBp: config.SELL_SPREAD_BP,
      closesBeforeExpiryMs: config.SELL_CLOSES_BEFORE_EXPIRY_MS,
    },
  });
  const accounts = composeAccounts(config, db, userEvents, overrides.now);
  const { practice, summaries, balancesChanged } = accounts;
  const auth = composeAuth(config, db, userEvents, accounts.identity, throttles, overrides);
  const uploads = createUploadService(db, config.uploadsDir);
  const { testClock, clock, policy, savings, savingsJob } = composeSavings(
    config,
    db,
    balancesChanged,
    log,
    overrides,
  );
  const wallet = createWalletService({
    db,
    clock,
    config,
    auth,
    uploads,
    userEvents,
    summaries,
    identity: accounts.identity,
    depositRate: createLimiter({
      ...(overrides.depositRate ?? depositRateLimit),
      ...throttles,
      keyPrefix: `${throttles.keyPrefix}:deposits`,
    }),
    pendingDepositsMax: overrides.pendingDepositsMax,
    addresses: createDepositAddresses({
      ERC20: config.USDT_ERC20_XPUB,
      TRC20: config.USDT_TRC20_XPUB,
    }),
    chainSources: overrides.chainSources ?? chainSources(config),
  });
  const kyc = createKycService(db, uploads, userEvents, summaries);
  const orders = createOrdersService({
    db,
    market,
    userEvents,
    metrics,
    practice,
    maxFeedDelayMs: config.MAX_FEED_DELAY_MS,
    balancesChanged,
    now: overrides.now,
    offsetMinutes: config.PLATFORM_UTC_OFFSET_MINUTES,
    ...orderSignals(bus),
  });
  const fairness = createFairnessService({
    db,
    oldestOpenOrders: () => orders.oldestOpenByProduct(),
    spec: (id) => market.spec(id),
    log: log.child({ part: 'fairness' }),
  });
  // What the routes serve, each service once.
  const services = {
    market,
    fairness,
    favourites: createFavouritesService({ db, market }),
    alerts: createAlertsService({ db, market, userEvents, max: config.PRICE_ALERTS_MAX }),
    drawings: createDrawingsService({ db, market, userEvents }),
    auth,
    uploads,
    wallet,
    kyc,
    orders,
    savings,
    practice,
    content: createContentService(db),
    messages: createMessagesService(db, userEvents),
  };
  const operators = composeOperators(db, throttles);
  const resets = composeResets(config, db, userEvents, clock, operators, log);
  // The processes' live figures for the dashboard, heard on the bus (process-reports.ts).
  const board = await processBoard(bus);
  const app = createApiApp({
    config,
    db,
    bus,
    board,
    log,
    ...services,
    twoFactorResets: resets,
    testClock: testClock
      ? { clock: testClock, policy, afterAdvance: () => clockJobs(savingsJob, resets) }
      : null,
    operatorTokenHash: o.operatorTokenHash,
    operators,
    metrics,
    throttles,
    publicReadGate: overrides.publicReadGate,
  });
  return {
    app,
    ...services,
    operators,
    savingsJob,
    twoFactorResets: resets,
    summaries,
    balancesChanged,
    clock,
    testClock,
    board,
  };
}
