import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, SocketTicket } from '@shared/socket';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort, startPrivateRedis, type PrivateRedis } from '@tests/support/redis-server';
import { oneAddressSocketEnv } from '@tests/support/socket-limits';
import { eventually } from '@tests/support/wait';
import { newTrader } from '@tests/load/flood';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const SOCKETS = 5000;
const TRADERS = 10;

/** A signed-in socket that keeps the last ticket it was given and sends it back on reconnecting. */
interface Held {
  client: Client;
  token: string;
  ticket: SocketTicket | null;
  userId: string | null;
  /** Signed-in hellos so far: one per connection. */
  hellos: number;
}

/**
 * The api behind a counting HTTP proxy: every request a gateway makes of the api is counted, by
 * path. The gateways' API_URL is the proxy.
 */
async function countingProxy(apiPort: number) {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const upstream = http.request(
      { host: '127.0.0.1', port: apiPort, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    byPath: () => Object.fromEntries(counts),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * A gateway dies under 5 000 signed-in sockets; they all come back within about a second to the
 * gateway that replaces it, admitted by their socket tickets: the api hears next to
 * nothing of it. And a ticket issued before a logout is refused by a gateway that never saw it.
 */
describe('a reconnect storm with socket tickets (PostgreSQL + Redis)', { timeout: 180_000 }, () => {
  let t: TestDb;
  let redis: PrivateRedis;
  let env: Record<string, string>;
  let api: RunningProcess;
  const gateways: RunningProcess[] = [];
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let gwUrl = '';
  let apiUrl = '';
  const held: Held[] = [];

  const startGateway = async (port: number) => {
    const gw = startEntry('server/src/main/gateway.ts', {
      ...env,
      PORT: String(port),
      API_URL: proxy.url,
    });
    gateways.push(gw);
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, 200, 60_000);
    return gw;
  };

  beforeAll(async () => {
    [t, redis] = await Promise.all([openTestDb('postgres'), startPrivateRedis()]);
    env = {
      DATABASE_URL: urlWithSchema(t.url!, t.schema!),
      REDIS_URL: redis.url,
      REDIS_NAMESPACE: `storm-${randomBytes(3).toString('hex')}`,
      SIM_BACKFILL_HOURS: '0',
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_MS: '5000',
      SOCKET_TICKET_SECRET: randomBytes(32).toString('base64url'),
      // The test's clients, standing in for many users, all connect from 127.0.0.1.
      ...oneAddressSocketEnv,
    };
    const apiPort = await freePort();
    apiUrl = `http://127.0.0.1:${apiPort}`;
    api = startEntry('server/src/main/api.ts', { ...env, PORT: String(apiPort) });
    await waitForHttp(`${apiUrl}/readyz`, 200, 60_000);
    proxy = await countingProxy(apiPort);
  }, 120_000);

  afterAll(async () => {
    for (const h of held) h.client.disconnect();
    await Promise.all([...gateways, api].map((p) => p?.stop('SIGKILL')));
    await proxy?.close();
    await redis?.kill();
    await t?.drop();
  }, 60_000);

  /** A socket to the gateway's port that signs in with its token and, once given one, its ticket. */
  const open = (token: string, ticket: SocketTicket | null): Held => {
    const h: Held = { client: null as unknown as Client, token, ticket, userId: null, hellos: 0 };
    h.client = connect(gwUrl, {
      transports: ['websocket'],
      forceNew: true,
      reconnectionDelay: 300,
      reconnectionDelayMax: 1000,
      auth: (cb) => cb(h.ticket ? { token: h.token, ticket: h.ticket.value } : { token: h.token }),
    });
    h.client.on('hello', (hello) => {
      h.userId = hello.userId;
      if (hello.userId) h.hellos++;
      if (hello.ticket) h.ticket = hello.ticket;
    });
    h.client.on('ticket', (fresh) => (h.ticket = fresh));
    h.client.on('disconnect', () => (h.userId = null));
    held.push(h);
    return h;
  };

  it('brings 5 000 signed-in sockets back on another gateway with under 100 api requests', async () => {
    const port = await freePort();
    gwUrl = `http://127.0.0.1:${port}`;
    const gw1 = await startGateway(port);

    const startedAt = Date.now();
    await t.db.query("INSERT INTO invite_codes (code) VALUES ('STORM') ON CONFLICT DO NOTHING");
    const tokens = await Promise.all(
      Array.from({ length: TRADERS }, () => newTrader(apiUrl, 'STORM')),
    );
    // One socket per session signs in by its token (the api checks it) and gets the first ticket.
    const firsts = tokens.map((token) => open(token, null));
    await eventually(() => firsts.every((h) => h.ticket !== null), 30_000, 'first tickets');
    // The rest bring that ticket, and each gets one of its own in its hello.
    for (let i = firsts.length; i < SOCKETS; i += 500) {
      const batch = Array.from({ length: Math.min(500, SOCKETS - i) }, (_, k) => {
        const first = firsts[(i + k) % TRADERS]!;
        return open(first.token, first.ticket);
      });
      await eventually(() => batch.every((h) => h.userId !== null), 30_000, 'a batch signed in');
    }
    expect(held.filter((h) => h.userId !== null)).toHaveLength(SOCKETS);
    console.log(
      `${TRADERS} traders signed up and ${SOCKETS} sockets signed in: ${Date.now() - startedAt} ms`,
    );
    const beforeStorm = proxy.byPath();
    console.log('api requests while 5 000 sockets signed in:', beforeStorm);
    expect(beforeStorm['/api/me'] ?? 0).toBeLessThan(100);

    // The gateway dies; a new one (which never saw these sockets) takes its port. The clients
    // retry meanwhile (socket.io's backoff, at most 1 s here) and storm it as soon as it listens.
    await gw1.stop('SIGKILL');
    await eventually(() => held.every((h) => !h.client.connected), 30_000, 'every socket dropped');
    const before = proxy.total();
    await startGateway(port);
    const readyAt = Date.now();
    await eventually(
      () => held.every((h) => h.hellos === 2 && h.client.connected),
      60_000,
      'every socket back signed in',
    );
    const backInMs = Date.now() - readyAt;
    const during = proxy.total() - before;
    console.log(
      `reconnect storm: ${SOCKETS} sockets back signed in ${backInMs} ms after the new gateway was ready; api requests during it: ${during}`,
      proxy.byPath(),
    );
    expect(during).toBeLessThan(100);
    expect(new Set(held.map((h) => h.userId)).size).toBe(TRADERS);
  });

  it("refuses a logged-out session's earlier ticket (UNAUTHENTICATED) on a gateway that never issued it", async () => {
    const victim = held[0]!;
    const ticket = victim.ticket!;
    const res = await fetch(`${apiUrl}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${victim.token}` },
    });
    expect(res.status).toBeLessThan(300);
    // A gateway that never saw this socket or its session: a fresh one on a port of its own.
    const port = await freePort();
    await startGateway(port);
    const refused = await new Promise<string>((resolve) => {
      const c: Client = connect(`http://127.0.0.1:${port}`, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        auth: { token: victim.token, ticket: ticket.value },
      });
      c.once('hello', (h) => resolve(`hello ${String(h.userId)}`));
      c.once('connect_error', (err) => resolve(err.message));
      held.push({ client: c, token: victim.token, ticket, userId: null, hellos: 0 });
    });
    expect(refused).toBe('UNAUTHENTICATED');
  });
});
