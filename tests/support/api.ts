import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
import { createOrdersService } from '@server/modules/orders/orders.service';
import { createSavingsService } from '@server/modules/savings/savings.service';
import { createSavingsJob } from '@server/modules/savings/savings.job';
import { savingsPolicy } from '@server/modules/savings/savings.policy';
import { movableClock } from '@server/platform/clock';
import { createMetrics } from '@server/platform/metrics';
import type { Bus } from '@server/platform/bus';
import { createMemoryBus, createMemoryHub } from '@server/platform/bus/memory';
import type { Db } from '@server/platform/db';
import { createLimiter } from '@server/platform/rate-limit';
import { recordingUserEvents, type UserEvents } from '@server/platform/user-events';
import { defaultCatalogue } from '@sim/catalogue';

export const OPERATOR_TOKEN = 'test-operator-token-0123456789';

/**
 * The api app over a test database, wired as `startApi` does, with in-memory limiters and a
 * private temporary DATA_DIR (uploads). `env` adds configuration variables.
 */
export async function buildTestApi(
  db: Db,
  {
    now,
    bus = createMemoryBus(createMemoryHub()),
    env = {},
    clock = movableClock(),
    confirmAttempts = 10,
    sockets,
  }: {
    now?: () => number;
    bus?: Bus;
    env?: Record<string, string>;
    /** Confirmation passwords (transaction, old) per user per window; 10 as in roles.ts. */
    confirmAttempts?: number;
    /** The platform clock of savings (days, cut-offs); tests move it with `clock.advance`. */
    clock?: ReturnType<typeof movableClock>;
    /** Real sockets to reach as well (`lateUserEvents` bound to a gateway); events are recorded either way. */
    sockets?: UserEvents;
  } = {},
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-test-'));
  const config = loadConfig({ ...env, DATA_DIR: dataDir });
  const market = await createMarketService({ db, bus, catalogue: defaultCatalogue, now });
  const limiter = (name: string, points: number) =>
    createLimiter({ keyPrefix: name, points, durationSec: 900 });
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
      account: limiter('account', 10),
      ip: limiter('ip', 100),
      confirm: limiter('confirm', confirmAttempts),
    },
    userEvents,
  );
  const uploads = createUploadService(db, config.uploadsDir);
  const summaries = createAccountSummaries({
    db,
    userEvents,
    offsetMinutes: config.PLATFORM_UTC_OFFSET_MINUTES,
    now,
  });
  const wallet = createWalletService({ db, config, auth, uploads, userEvents, summaries });
  const kyc = createKycService(db, uploads, userEvents, summaries);
  const metrics = createMetrics('test');
  const orders = createOrdersService({
    db,
    market,
    userEvents,
    metrics,
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
    log: pino({ level: 'silent' }),
    market,
    fairness,
    auth,
    userEvents,
    uploads,
    wallet,
    kyc,
    orders,
    savings,
    testClock:
      config.TEST_CLOCK === '1'
        ? { clock, policy, afterAdvance: () => savingsJob.runOnce() }
        : null,
    operatorTokenHash: sha256(OPERATOR_TOKEN),
  });
  return {
    app,
    http: request(app),
    market,
    fairness,
    auth,
    orders,
    savings,
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
 * What the HTTP helpers need: supertest over the in-process app (`buildTestApi`) or over a
 * running server (`{ http: request(app.url) }`, the browser suites).
 */
export type HttpApi = Pick<TestApi, 'http'>;

let counter = 0;
/** A registered, logged-in user; returns its token and profile. */
export async function registerUser(api: HttpApi, prefix = 'user') {
  const account = `${prefix}${Date.now().toString(36).slice(-5)}${counter++}`.slice(0, 20);
  const password = 'correct horse 1';
  await api.http
    .post('/api/auth/register')
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
  const login = await api.http.post('/api/auth/login').send({ account, password }).expect(200);
  const body = login.body as { token: string; user: { id: string; inviteCode: string } };
  return {
    account,
    password,
    token: body.token,
    user: body.user,
    auth: { Authorization: `Bearer ${body.token}` },
  };
}
