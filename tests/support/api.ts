import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import { loadConfig } from '@server/config';
import { insertInviteCode } from '@server/modules/auth/auth.repo';
import { sha256 } from '@server/platform/http/auth';
import { movableClock } from '@server/platform/clock';
import { createMetrics } from '@server/platform/metrics';
import type { Logger } from '@infra/logger';
import type { Bus } from '@infra/bus';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import type { Db } from '@infra/db';
import type { LimitSpec } from '@server/platform/rate-limit';
import type { GateLimits } from '@server/platform/concurrency-gate';
import type { authLimits } from '@server/modules/auth/auth.limits';
import { confirmLimit } from '@server/modules/auth/auth.limits';
import { composeApi } from '@server/main/compose';
import type { ChainSources } from '@server/modules/wallet/chain/source';
import { memoryChains } from './memory-chain';
import { recordingUserEvents, type UserEvents } from '@server/platform/user-events';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';

export const OPERATOR_TOKEN = 'test-operator-token-0123456789';

/**
 * The api app over a test database, wired by `composeApi` as `startApi` wires it, with in-memory limiters (the
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
    publicReadGate,
    chain,
  }: {
    /** The chain nodes USDT claims are checked against: in-memory chains unless a test passes others. */
    chain?: ChainSources;
    /** The gate of anonymous market reads, when not production's (a test holding reads open). */
    publicReadGate?: GateLimits;
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
  // In-memory chains unless the test brings its nodes (then `chain` below is not for it to use).
  const memory = memoryChains();
  // Tests bind a withdrawal account and withdraw at once: no new-account hold unless one asks.
  const config = loadConfig({ WITHDRAWAL_ACCOUNT_HOLD_HOURS: '0', ...env, DATA_DIR: dataDir });
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
  const metrics = createMetrics('all');
  const composed = await composeApi(
    config,
    db,
    bus,
    { userEvents, metrics, log, throttles: store, operatorTokenHash: sha256(OPERATOR_TOKEN) },
    {
      now,
      clock,
      authLimits: limits,
      confirmLimit: confirm,
      depositRate: deposits.rate,
      pendingDepositsMax: deposits.pendingMax,
      publicReadGate,
      chainSources: chain ?? memory,
    },
  );
  const { app, market, fairness, auth, orders, savings, practice, savingsJob, alerts } = composed;
  const { twoFactorResets } = composed;
  await insertInviteCode(db, 'WELCOME', null);
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
    alerts,
    /** The support resets of two-factor: `job.runOnce()` applies those due on `clock`. */
    twoFactorResets,
    clock,
    metrics,
    bus,
    userEvents,
    /** The in-memory chains claims are checked against (when the test passed no `chain`). */
    chain: memory,
    uploadsDir: config.uploadsDir,
    close: async () => {
      await composed.board.close();
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
      acceptTerms: DEFAULT_TERMS_VERSION,
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
