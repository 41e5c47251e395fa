import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '@server/app';
import { loadConfig } from '@server/config';
import { createAuthService } from '@server/modules/auth/auth.service';
import { insertInviteCode } from '@server/modules/auth/auth.repo';
import { createMarketService } from '@server/modules/market/market.service';
import { createFairnessService } from '@server/modules/market/fairness.service';
import { sha256 } from '@server/modules/operator/operator-token';
import { createUploadService } from '@server/modules/uploads/upload.service';
import { createKycService } from '@server/modules/kyc/kyc.service';
import { createWalletService } from '@server/modules/wallet/wallet.service';
import { createAccountSummaries } from '@server/modules/wallet/summary';
import { createPracticeService } from '@server/modules/wallet/practice';
import { createOrdersService } from '@server/modules/orders/orders.service';
import { createSavingsService } from '@server/modules/savings/savings.service';
import { createSavingsJob } from '@server/modules/savings/savings.job';
import { savingsPolicy } from '@server/modules/savings/savings.policy';
import { movableClock } from '@server/platform/clock';
import { createMetrics } from '@server/platform/metrics';
import type { Logger } from '@server/platform/logger';
import type { Bus } from '@server/platform/bus';
import { createMemoryBus, createMemoryHub } from '@server/platform/bus/memory';
import type { Db } from '@server/platform/db';
import { createLimiter, createLimiters, type LimitSpec } from '@server/platform/rate-limit';
import { createCheckLimiter } from '@server/platform/check-limiter';
import { authLimits, confirmLimit } from '@server/modules/auth/auth.limits';
import { depositRateLimit } from '@server/modules/wallet/deposit.service';
import { recordingUserEvents, type UserEvents } from '@server/platform/user-events';
import { defaultCatalogue } from '@sim/catalogue';

export const OPERATOR_TOKEN = 'test-operator-token-0123456789';

/**
 * The api app over a test database, wired as `startApi` does, with in-memory limiters (the
 * production figures unless `limits` changes some) and a private temporary DATA_DIR (uploads).
 * `env` adds configuration variables.
 */
export async function buildTestApi(
  db: Db,
  {
    now,
    bus = createMemoryBus(createMemoryHub()),
    env = {},
    clock = movableClock(),
    sockets,
    limits = {},
    confirm = confirmLimit,
    deposits = {},
    redis,
    log = pino({ level: 'silent' }),
  }: {
    now?: () => number;
    bus?: Bus;
    env?: Record<string, string>;
    /** Other figures for some of the account throttles (a short window, say). */
    limits?: Partial<typeof authLimits>;
    /** Other figures for the confirmation-password throttle. */
    confirm?: LimitSpec;
    /** Other figures for the deposit throttles: the cap on pending ones, the rate. */
    deposits?: { pendingMax?: number; rate?: LimitSpec };
    /**
     * Keep the throttles' counts in Redis under `keyPrefix`, as scaled api processes do; two test
     * apps given the same prefix stand for two api processes.
     */
    redis?: { client: Redis; keyPrefix: string };
    /** The platform clock of savings (days, cut-offs); tests move it with `clock.advance`. */
    clock?: ReturnType<typeof movableClock>;
    /** The app's logger (a test reads the access log from it); silent by default. */
    log?: Logger;
    /** Real sockets to reach as well (`lateUserEvents` bound to a gateway); events are recorded either way. */
    sockets?: UserEvents;
  } = {},
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-test-'));
  const config = loadConfig({ ...env, DATA_DIR: dataDir });
  const market = await createMarketService({ db, bus, catalogue: defaultCatalogue, now });
  const keyPrefix = redis?.keyPrefix ?? 'test';
  const store = { keyPrefix, redis: redis?.client };
  const recorded = recordingUserEvents();
  const userEvents: typeof recorded = sockets
    ? {
        ...recorded,
        emit(userId, event, ...args) {
          recorded.emit(userId, event, ...args);
          sockets.emit(userId, event, ...args);
        },
        endSessions(tokenHashes, reason) {
          recorded.endSessions(tokenHashes, reason);
          sockets.endSessions(tokenHashes, reason);
        },
      }
    : recorded;
  const auth = createAuthService(
    db,
    {
      ...createLimiters({ ...authLimits, ...limits }, store),
      confirm: createCheckLimiter({ ...confirm, ...store, keyPrefix: `${keyPrefix}:confirm` }),
    },
    userEvents,
  );
  const uploads = createUploadService(db, config.uploadsDir);
  const practice = createPracticeService({
    db,
    balance: config.PRACTICE_BALANCE,
    balancesChanged: (ids) => ids.forEach((id) => void summaries.publish(id)),
  });
  const summaries = createAccountSummaries({
    db,
    userEvents,
    offsetMinutes: config.PLATFORM_UTC_OFFSET_MINUTES,
    now,
    practice,
  });
  const depositRate = createLimiter({
    ...(deposits.rate ?? depositRateLimit),
    ...store,
    keyPrefix: `${keyPrefix}:deposits`,
  });
  const wallet = createWalletService({
    db,
    config,
    auth,
    uploads,
    userEvents,
    summaries,
    depositRate,
    pendingDepositsMax: deposits.pendingMax,
  });
  const kyc = createKycService(db, uploads, userEvents, summaries);
  const metrics = createMetrics('all');
  const orders = createOrdersService({
    db,
    market,
    userEvents,
    metrics,
    practice,
    maxFeedDelayMs: config.MAX_FEED_DELAY_MS,
    balancesChanged: (ids) => ids.forEach((id) => void summaries.publish(id)),
    now,
  });
  const fairness = createFairnessService({
    db,
    oldestOpenOrders: () => orders.oldestOpenByProduct(),
    spec: (id) => market.spec(id),
  });
  const policy = savingsPolicy(config);
  const balancesChanged = (ids: number[]) => ids.forEach((id) => void summaries.publish(id));
  const savings = createSavingsService({ db, clock, policy, balancesChanged });
  const savingsJob = createSavingsJob({ db, clock, policy, balancesChanged });
  await insertInviteCode(db, 'WELCOME', null);
  const app = createApiApp({
    config,
    db,
    bus,
    log,
    market,
    fairness,
    auth,
    userEvents,
    uploads,
    wallet,
    kyc,
    orders,
    savings,
    practice,
    testClock:
      config.TEST_CLOCK === '1'
        ? { clock, policy, afterAdvance: () => savingsJob.runOnce() }
        : null,
    operatorTokenHash: sha256(OPERATOR_TOKEN),
    metrics,
  });
  return {
    app,
    http: request(app),
    market,
    fairness,
    auth,
    orders,
    savings,
    practice,
    savingsJob,
    clock,
    metrics,
    bus,
    userEvents,
    uploadsDir: config.uploadsDir,
    close: async () => {
      await market.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApi = Awaited<ReturnType<typeof buildTestApi>>;

/**
 * Throttle stores in Redis (REDIS_URL) for `buildTestApi({ redis })`: `count` connections sharing
 * one fresh key prefix, so that as many test apps stand for api processes of one deployment.
 */
export function sharedRedisThrottles(count: number) {
  const keyPrefix = `test-${randomBytes(4).toString('hex')}:throttle`;
  const clients = Array.from({ length: count }, () => new Redis(process.env.REDIS_URL!));
  return {
    stores: clients.map((client) => ({ client, keyPrefix })),
    close: () => clients.forEach((c) => c.disconnect()),
  };
}

/**
 * What the HTTP helpers need: supertest over the in-process app (`buildTestApi`) or over a
 * running server (`{ http: request(app.url) }`, the browser suites).
 */
export type HttpApi = Pick<TestApi, 'http'>;

let addresses = 0;
/**
 * A client address of its own, for X-Forwarded-For (the test servers trust it from loopback, as
 * TRUST_PROXY's default does): registrations are throttled per address, and test users are many.
 */
export const newTestAddress = () => {
  const n = ++addresses;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

let counter = 0;
/** A registered, logged-in user, each from an address of its own; returns its token and profile. */
export async function registerUser(api: HttpApi, prefix = 'user') {
  const account = `${prefix}${Date.now().toString(36).slice(-5)}${counter++}`.slice(0, 20);
  const password = 'correct horse 1';
  const from = { 'X-Forwarded-For': newTestAddress() };
  await api.http
    .post('/api/auth/register')
    .set(from)
    .send({
      account,
      phone: '+8613800138000',
      inviteCode: 'WELCOME',
      password,
      passwordConfirm: password,
      tradePassword: '123456',
      tradePasswordConfirm: '123456',
    })
    .expect(201);
  const login = await api.http
    .post('/api/auth/login')
    .set(from)
    .send({ account, password })
    .expect(200);
  const body = login.body as { token: string; user: { id: string; inviteCode: string } };
  return {
    account,
    password,
    token: body.token,
    user: body.user,
    auth: { Authorization: `Bearer ${body.token}` },
  };
}
