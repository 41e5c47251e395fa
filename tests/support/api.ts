import pino from 'pino';
import request from 'supertest';
import { createApiApp } from '@server/app';
import { loadConfig } from '@server/config';
import { createAuthService } from '@server/modules/auth/auth.service';
import { insertInviteCode } from '@server/modules/auth/auth.repo';
import { createMarketService } from '@server/modules/market/market.service';
import { sha256 } from '@server/modules/operator/operator-token';
import type { Bus } from '@server/platform/bus';
import { createMemoryBus, createMemoryHub } from '@server/platform/bus/memory';
import type { Db } from '@server/platform/db';
import { createLimiter } from '@server/platform/rate-limit';
import { recordingUserEvents } from '@server/platform/user-events';
import { defaultCatalogue } from '@sim/catalogue';

export const OPERATOR_TOKEN = 'test-operator-token-0123456789';

/** The api app over a test database, wired as `startApi` does, with in-memory limiters. */
export async function buildTestApi(
  db: Db,
  { now, bus = createMemoryBus(createMemoryHub()) }: { now?: () => number; bus?: Bus } = {},
) {
  const market = await createMarketService({ db, bus, catalogue: defaultCatalogue, now });
  const limiter = (name: string, points: number) =>
    createLimiter({ keyPrefix: name, points, durationSec: 900 });
  const auth = createAuthService(db, { account: limiter('account', 10), ip: limiter('ip', 100) });
  const userEvents = recordingUserEvents();
  await insertInviteCode(db, 'WELCOME', null);
  const app = createApiApp({
    config: loadConfig({}),
    db,
    bus,
    log: pino({ level: 'silent' }),
    market,
    auth,
    userEvents,
    operatorTokenHash: sha256(OPERATOR_TOKEN),
  });
  return { app, http: request(app), market, auth, bus, userEvents, close: () => market.close() };
}

export type TestApi = Awaited<ReturnType<typeof buildTestApi>>;

let counter = 0;
/** A registered, logged-in user; returns its token and profile. */
export async function registerUser(api: TestApi, prefix = 'user') {
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
