import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * The api stops while a signed-in client uses a gateway: the gateway refuses the client's token
 * with the retryable UNAVAILABLE (never UNAUTHENTICATED, which would end the session), its
 * readiness and metrics show the outage, and once the api is back the same token is accepted.
 */
describe('a gateway whose api is away (PostgreSQL + Redis)', { timeout: 180_000 }, () => {
  let t: TestDb;
  let env: Record<string, string>;
  let api: RunningProcess;
  let sim: RunningProcess;
  let gateway: RunningProcess;
  let apiPort = 0;
  let gwUrl = '';
  let metricsUrl = '';
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await openTestDb('postgres');
    env = {
      DATABASE_URL: urlWithSchema(t.url!, t.schema!),
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_NAMESPACE: `outage-${randomBytes(3).toString('hex')}`,
      SIM_BACKFILL_HOURS: '0',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: '5000',
    };
    const [simPort, gwPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort()]);
    apiPort = await freePort();
    sim = startEntry('server/src/main/sim.ts', { ...env, PORT: String(simPort) });
    api = startEntry('server/src/main/api.ts', { ...env, PORT: String(apiPort) });
    await Promise.all([
      waitForHttp(`http://127.0.0.1:${simPort}/readyz`, 200, 60_000),
      waitForHttp(`http://127.0.0.1:${apiPort}/readyz`, 200, 60_000),
    ]);
    gateway = startEntry('server/src/main/gateway.ts', {
      ...env,
      PORT: String(gwPort),
      API_URL: `http://127.0.0.1:${apiPort}`,
      METRICS_PORT: String(metricsPort),
    });
    gwUrl = `http://127.0.0.1:${gwPort}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    await waitForHttp(`${gwUrl}/readyz`, 200, 60_000);
  }, 180_000);

  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await Promise.all([gateway, api, sim].map((p) => p?.stop('SIGTERM')));
    await t?.drop();
  }, 60_000);

  /** How one connection attempt with `token` ends: the hello's user, or the refusal's code. */
  const attempt = (token: string) =>
    new Promise<{ userId?: string | null; refused?: string }>((resolve) => {
      const c: Client = connect(gwUrl, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        auth: { token },
      });
      clients.push(c);
      c.once('hello', (h) => resolve({ userId: h.userId }));
      c.once('connect_error', (err) => resolve({ refused: err.message }));
    });
  const readiness = async () =>
    (await (await fetch(`${gwUrl}/readyz`)).json()) as {
      ok: boolean;
      checks: Record<string, boolean>;
      degraded?: string[];
    };
  const reachableGauge = async () =>
    /^gateway_api_reachable\{[^}]*\} (\d)$/m.exec(await (await fetch(metricsUrl)).text())?.[1];
  const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const v = await read();
      if (ok(v)) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${String(v)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it('refuses UNAVAILABLE while the api is down, shows it, and admits the same token once it is back', async () => {
    const account = `out_${randomBytes(3).toString('hex')}`;
    await t.db.query("INSERT INTO invite_codes (code) VALUES ('OUT') ON CONFLICT DO NOTHING");
    const body = {
      account,
      phone: '+15550100',
      inviteCode: 'OUT',
      password: 'outage pass 1',
      passwordConfirm: 'outage pass 1',
      tradePassword: '123456',
      tradePasswordConfirm: '123456',
      acceptTerms: DEFAULT_TERMS_VERSION,
    };
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const post = (path: string, b: unknown) =>
      fetch(`${apiUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(b),
      });
    expect((await post('/api/auth/register', body)).status).toBe(201);
    const login = (await (
      await post('/api/auth/login', { account, password: body.password })
    ).json()) as { token: string; user: { id: string } };
    expect(await attempt(login.token)).toEqual({ userId: login.user.id });
    expect(await reachableGauge()).toBe('1');

    expect(await api.stop('SIGTERM')).toBe(0);
    expect(await attempt(login.token)).toEqual({ refused: 'UNAVAILABLE' });
    const down = await until(readiness, (r) => r.degraded?.includes('api') ?? false, 'readiness');
    expect(down).toMatchObject({ ok: true, checks: { api: false, bus: true } });
    expect(await until(reachableGauge, (v) => v === '0', 'the gauge')).toBe('0');
    expect(gateway.output()).toMatch(/api unreachable/);

    api = startEntry('server/src/main/api.ts', { ...env, PORT: String(apiPort) });
    await waitForHttp(`${apiUrl}/readyz`, 200, 60_000);
    // The session was never ended: the very same token is admitted again.
    expect(await attempt(login.token)).toEqual({ userId: login.user.id });
    const up = await until(readiness, (r) => !r.degraded, 'readiness back');
    expect(up.checks.api).toBe(true);
    expect(await reachableGauge()).toBe('1');
  });
});
