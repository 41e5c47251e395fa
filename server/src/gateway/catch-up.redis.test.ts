import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import pino from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ClientToServerEvents, Hello, ServerToClientEvents } from '@shared/socket';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { loadConfig } from '@server/config';
import { attachGateway } from '@server/main/gateway-role';
import { redisUserEvents } from '@server/platform/user-events';
import { startFaultProxy, type FaultProxy } from '@tests/support/fault-proxy';
import { startPrivateRedis, type PrivateRedis } from '@tests/support/redis-server';
import { oneAddressSocketEnv } from '@tests/support/socket-limits';
import type { Gateway } from './gateway';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Pub/sub delivers to whoever is subscribed at the moment: a gateway whose subscriber lost
 * Redis (a failover, a dropped connection) misses the user events published meanwhile, and its
 * sockets, which never disconnected, have no reconnection to replay them. Here the gateway
 * reaches Redis through a proxy that a test cuts, while the api's emitter keeps its own
 * connection: the events of the cut are stored in the users' streams but heard by no one.
 */
describe('user events missed while the gateway was cut off from Redis', { timeout: 60_000 }, () => {
  let redis: PrivateRedis;
  let proxy: FaultProxy;
  let api: Redis;
  let gateway: Gateway;
  let url: string;
  const clients: Client[] = [];
  const ns = 'catchup';
  const emit = (userId: number, n: number) =>
    redisUserEvents(api, ns, pino({ level: 'silent' })).emit(userId, 'balance', { n } as never);

  beforeAll(async () => {
    redis = await startPrivateRedis();
    proxy = await startFaultProxy(redis.port);
    api = new Redis(redis.url);
    const server = http.createServer();
    gateway = await attachGateway(
      server,
      createMemoryBus(createMemoryHub()),
      pino({ level: (process.env.LOG_LEVEL ?? 'silent') as 'info' }),
      {
        authenticate: (token) => Promise.resolve(token.startsWith('user-') ? token.slice(5) : null),
        redis: { url: `redis://127.0.0.1:${proxy.port}` },
        namespace: ns,
        config: loadConfig(oneAddressSocketEnv),
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await gateway?.close();
    api?.disconnect();
    await proxy?.close();
    await redis?.kill();
  });

  /** A signed-in socket: the `n` of each balance event it heard, its hellos, its disconnects. */
  const signedIn = async (userId: number) => {
    const heard = { ns: [] as number[], hellos: [] as Hello[], disconnects: 0 };
    const c: Client = connect(url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      auth: { token: `user-${userId}` },
    });
    clients.push(c);
    c.on('balance', (p) => heard.ns.push((p as unknown as { n: number }).n));
    c.on('hello', (h) => heard.hellos.push(h));
    c.on('disconnect', () => heard.disconnects++);
    await vi.waitFor(() => expect(heard.hellos).toHaveLength(1), { timeout: 10_000 });
    return heard;
  };
  /** Subscribed patterns on the private Redis: the gateway's adapter's, while it is connected. */
  const patterns = async () => Number(await api.pubsub('NUMPAT'));
  const cut = async () => {
    proxy.mode('refuse');
    await vi.waitFor(async () => expect(await patterns()).toBe(0), { timeout: 10_000 });
  };
  const heal = () => proxy.mode('pass');

  it('sends each socket what it missed once the subscription is back, in order, without a reconnection', async () => {
    const a = await signedIn(1);
    const b = await signedIn(2);
    emit(1, 1);
    await vi.waitFor(() => expect(a.ns).toEqual([1]));

    await cut();
    emit(1, 2);
    emit(1, 3);
    emit(2, 1);
    // Stored though nobody heard them: what the catch-up will send.
    await vi.waitFor(async () => expect(await api.keys(`${ns}:user-events:*`)).toHaveLength(2));
    heal();

    await vi.waitFor(() => expect(a.ns).toEqual([1, 2, 3]), { timeout: 20_000 });
    await vi.waitFor(() => expect(b.ns).toEqual([1]));
    // Complete catch-ups: no second hello asking the app to read its state again.
    expect([a.hellos.length, b.hellos.length]).toEqual([1, 1]);
    expect([a.disconnects, b.disconnects]).toEqual([0, 0]);
    // And live events flow again.
    emit(1, 4);
    await vi.waitFor(() => expect(a.ns).toEqual([1, 2, 3, 4]));
  });

  it('says `gap` in a second hello when more was missed than the buffer holds', async () => {
    const c = await signedIn(3);
    emit(3, 0);
    await vi.waitFor(() => expect(c.ns).toEqual([0]));
    await cut();
    for (let n = 1; n <= 600; n++) emit(3, n);
    await vi.waitFor(
      async () => {
        const newest = await api.xrevrange(`${ns}:user-events:{3}`, '+', '-', 'COUNT', 1);
        expect(newest[0]?.[1][3]).toBe(JSON.stringify({ n: 600 }));
      },
      { timeout: 10_000 },
    );
    heal();
    await vi.waitFor(() => expect(c.hellos).toHaveLength(2), { timeout: 20_000 });
    expect(c.hellos[1]).toMatchObject({ userId: '3', replay: 'gap' });
    // What the buffer still held came first, the newest last.
    expect(c.ns.at(-1)).toBe(600);
    expect(c.disconnects).toBe(0);
  });
});
