import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import { loadConfig } from '@server/config';
import type { Gateway } from '@server/gateway/gateway';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { oneAddressSocketEnv } from '@tests/support/socket-limits';
import { fund, opsAuth, type TestUser } from '@tests/support/wallet';
import { attachGateway } from './gateway-role';
import { lateUserEvents } from '@server/platform/user-events';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/** What one socket heard, in order: user events, the end notice, the disconnect. */
interface Watched {
  c: Client;
  heard: string[];
  disconnected: string | null;
}

/**
 * Logout and password changes end the sockets of the sessions they revoke, in embedded mode:
 * the api and the gateway in one process, user events through `lateUserEvents` (as all.ts).
 */
describe.each(dbDrivers())('sessions end their sockets, embedded (%s)', (kind) => {
  let t: TestDb;
  let api: TestApi;
  let gateway: Gateway;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await openTestDb(kind);
    const sockets = lateUserEvents();
    api = await buildTestApi(t.db, { sockets });
    const server = http.createServer(api.app);
    gateway = await attachGateway(server, api.bus, pino({ level: 'silent' }), {
      authenticate: async (token) => {
        const session = await api.auth.authenticate(token);
        return session ? String(session.userId) : null;
      },
      config: loadConfig(oneAddressSocketEnv),
    });
    sockets.bind(gateway.io);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await gateway.close();
    await api.close();
    await t.drop();
  });

  const socketFor = (token: string): Client => {
    const c: Client = connect(url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      auth: { token },
    });
    clients.push(c);
    return c;
  };

  /** A signed-in socket, once its user room is joined (hello comes after). */
  const watch = async (token: string): Promise<Watched> => {
    const w: Watched = { c: socketFor(token), heard: [], disconnected: null };
    w.c.on('balance', () => w.heard.push('balance'));
    w.c.on('message', (m) => w.heard.push(`message ${m.title}`));
    w.c.on('sessionEnded', (e) => w.heard.push(`sessionEnded ${e.reason}`));
    w.c.on('disconnect', (reason) => (w.disconnected = reason));
    const hello = await new Promise<{ userId: string | null }>((r) => w.c.once('hello', r));
    expect(hello.userId).not.toBeNull();
    return w;
  };

  const login = async (user: TestUser) => {
    const res = await api.http
      .post('/api/auth/login')
      .send({ account: user.account, password: user.password })
      .expect(200);
    return res.body.token as string;
  };
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  const sendMessage = (user: TestUser, title: string) =>
    api.http
      .post('/api/ops/messages')
      .set(opsAuth)
      .send({ userId: user.user.id, title, body: 'Body' })
      .expect(201);

  const refusal = (token: string) =>
    new Promise<string>((resolve) => {
      const c = socketFor(token);
      c.once('connect', () => resolve('connected'));
      c.once('connect_error', (err) => resolve(err.message));
    });

  it('logout ends the sockets of that session with the reason; the user’s other session keeps its events', async () => {
    const user = await registerUser(api, 'sockout');
    const other = await login(user);
    const [leaving, tab2, staying] = await Promise.all([
      watch(user.token),
      watch(user.token), // a second tab of the same login
      watch(other),
    ]);

    await api.http.post('/api/auth/logout').set(user.auth).expect(204);
    for (const w of [leaving, tab2]) {
      await expect.poll(() => w.disconnected, { timeout: 10_000 }).toBe('io server disconnect');
      expect(w.heard).toEqual(['sessionEnded logout']);
    }

    // Events after the logout reach the other session only: a deposit approval, then a message.
    // Each is waited for on the session that stays, so it has been sent when the ended one is read.
    await fund(api, { ...user, auth: bearer(other) }, 10_000);
    await expect.poll(() => staying.heard.includes('balance'), { timeout: 10_000 }).toBe(true);
    await sendMessage(user, 'after logout');
    await expect
      .poll(() => staying.heard.includes('message after logout'), { timeout: 10_000 })
      .toBe(true);
    expect(staying.disconnected).toBeNull();
    expect(staying.heard).not.toContain('sessionEnded logout');
    for (const w of [leaving, tab2]) expect(w.heard).toEqual(['sessionEnded logout']);

    expect(await refusal(user.token)).toBe('UNAUTHENTICATED');
    expect(await refusal(other)).toBe('connected');
  });

  it('a password change ends the other sessions’ sockets; the current session’s socket stays and keeps receiving', async () => {
    const user = await registerUser(api, 'sockpw');
    const [second, third] = await Promise.all([login(user), login(user)]);
    const current = await watch(user.token);
    const others = await Promise.all([watch(second), watch(third), watch(third)]);

    await api.http
      .post('/api/me/password')
      .set(user.auth)
      .send({
        oldPassword: user.password,
        newPassword: 'new pass word 2',
        confirmPassword: 'new pass word 2',
      })
      .expect(204);
    for (const w of others) {
      await expect.poll(() => w.disconnected, { timeout: 10_000 }).toBe('io server disconnect');
      expect(w.heard).toEqual(['sessionEnded password_changed']);
    }

    await fund(api, user, 10_000);
    await sendMessage(user, 'after change');
    await expect
      .poll(() => current.heard, { timeout: 10_000 })
      // The approval also sends its own system message.
      .toEqual(expect.arrayContaining(['balance', 'message after change']));
    expect(current.disconnected).toBeNull();
    for (const w of others) expect(w.heard).toEqual(['sessionEnded password_changed']);

    expect(await refusal(second)).toBe('UNAUTHENTICATED');
    expect(await refusal(third)).toBe('UNAUTHENTICATED');
    expect(await refusal(user.token)).toBe('connected');
  });

  it('a transaction-password change says so to the sockets it ends', async () => {
    const user = await registerUser(api, 'socktrade');
    const other = await watch(await login(user));
    const current = await watch(user.token);
    await api.http
      .post('/api/me/trade-password')
      .set(user.auth)
      .send({ oldPassword: '123456', newPassword: '654321', confirmPassword: '654321' })
      .expect(204);
    await expect.poll(() => other.disconnected, { timeout: 10_000 }).toBe('io server disconnect');
    expect(other.heard).toEqual(['sessionEnded trade_password_changed']);
    expect(current.disconnected).toBeNull();
    // The socket that stays hears the change as a security message (its default-language title);
    // the ended one does not.
    await expect.poll(() => current.heard, { timeout: 10_000 }).toEqual(['message 交易密码已修改']);
    expect(other.heard).toEqual(['sessionEnded trade_password_changed']);
  });

  it('a logout and a password change at once: every ended session’s sockets end, the changer’s stays', async () => {
    const user = await registerUser(api, 'sockrace');
    const leaving = await login(user);
    const [changer, left] = await Promise.all([watch(user.token), watch(leaving)]);
    await Promise.all([
      api.http.post('/api/auth/logout').set(bearer(leaving)).expect(204),
      api.http
        .post('/api/me/password')
        .set(user.auth)
        .send({
          oldPassword: user.password,
          newPassword: 'raced pass 3',
          confirmPassword: 'raced pass 3',
        })
        .expect(204),
    ]);
    await expect.poll(() => left.disconnected, { timeout: 10_000 }).toBe('io server disconnect');
    expect(left.heard[0]).toMatch(/^sessionEnded (logout|password_changed)$/);
    expect(changer.disconnected).toBeNull();
    expect(await refusal(leaving)).toBe('UNAUTHENTICATED');
  });
});
