import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import pino from 'pino';
import type { MarketState } from '@shared/bus';
import type { Tick } from '@shared/market/model';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
  SubscribeAck,
  TimeAck,
} from '@shared/socket';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { eventually } from '@tests/support/wait';
import { oneAddressLimits } from '@tests/support/socket-limits';
import { sessionRoom, sessionTokenHash } from '../platform/user-events';
import { createGateway, type Gateway } from './gateway';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const hub = createMemoryHub();
const sim = createMemoryBus(hub);
let gateway: Gateway;
let url: string;
const clients: Client[] = [];
let racyChecks = 0;

const stats = {
  open: '1.00',
  high: '2.00',
  low: '0.50',
  last: '1.50',
  change: '0.50',
  changePct: '50.00',
  volume: '10',
  amount: '15.00',
};
const market = (ts: number): MarketState => ({
  ts,
  products: [
    { id: 'BTCUSDT', status: 'open', last: { id: 'BTCUSDT', seq: 1, ts, price: '1.50' }, stats },
  ],
});
const tick = (seq: number, id = 'BTCUSDT'): Tick => ({
  id,
  seq,
  ts: 1_000 + seq,
  price: `${100 + seq}.00`,
});

function client(auth?: Record<string, unknown>): Client {
  const c: Client = connect(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth,
  });
  clients.push(c);
  return c;
}
const subscribe = (c: Client, channels: unknown) =>
  new Promise<SubscribeAck>((resolve) => c.emit('subscribe', channels as string[], resolve));

beforeAll(async () => {
  const server = http.createServer();
  gateway = await createGateway(server, {
    bus: createMemoryBus(hub),
    log: pino({ level: 'silent' }),
    productIds: new Set(['BTCUSDT', 'ETHUSDT']),
    authenticate: (token) => {
      if (token === 'flaky') return Promise.reject(new Error('the api did not answer'));
      // Live at the first check, revoked by the second (a logout while the socket was admitted).
      if (token === 'racy') return Promise.resolve(racyChecks++ === 0 ? 'user-2' : null);
      return Promise.resolve(token === 'good' ? 'user-1' : null);
    },
    connectionLimits: oneAddressLimits, // every client here is 127.0.0.1
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await gateway.close();
});

describe('gateway', () => {
  it('says hello with the server time and no user for an anonymous socket', async () => {
    const c = client();
    const hello = await new Promise<{ serverTime: number; userId: string | null }>((r) =>
      c.once('hello', r),
    );
    expect(Math.abs(hello.serverTime - Date.now())).toBeLessThan(5000);
    expect(hello.userId).toBeNull();
  });

  it('wants the tape current while it has sockets (DECISIONS 63): at once on a connection, then every second', async () => {
    const wanted: number[] = [];
    const off = await sim.subscribe('tape-wanted', (m) => {
      expect(m.by).toBe('gateway');
      wanted.push(Date.now());
    });
    try {
      const c = client();
      await new Promise((r) => c.once('hello', r));
      await eventually(() => wanted.length >= 1, 2000, 'wanted on connecting');
      // Repeated while the socket stays (one a second), so the simulator keeps its full cadence.
      await eventually(() => wanted.length >= 3, 5000, 'wanted again while connected');
      expect(wanted.at(-1)! - wanted.at(-2)!).toBeGreaterThanOrEqual(500); // one a second, not one per check
    } finally {
      await off();
    }
  });

  it('answers time requests', async () => {
    const c = client();
    const answer = await new Promise<TimeAck>((r) => c.emit('time', r));
    expect(answer).toEqual({ serverTime: expect.any(Number) });
    if ('serverTime' in answer) expect(Math.abs(answer.serverTime - Date.now())).toBeLessThan(5000);
  });

  it('sends the market snapshot at once on subscribe, then every state the simulator publishes', async () => {
    await sim.publish({ type: 'market', market: market(1) });
    await new Promise((r) => setTimeout(r, 10)); // let the in-process bus deliver
    const c = client();
    const got: number[] = [];
    c.on('market', (m) => got.push(m.ts));
    expect(await subscribe(c, ['market'])).toEqual({ ok: true });
    await eventually(() => got.length === 1, 2000, 'snapshot');
    expect(got[0]).toBe(1);
    await sim.publish({ type: 'market', market: market(2) });
    await eventually(() => got.length === 2, 2000, 'second snapshot');
    expect(got).toEqual([1, 2]);
  });

  it('conveys the snapshot in the wire shape of API.md', async () => {
    const c = client();
    const snap = new Promise((r) => c.once('market', r));
    await subscribe(c, ['market']);
    expect(await snap).toMatchObject({
      products: [
        {
          id: 'BTCUSDT',
          price: '1.50',
          changePct: '50.00',
          high: '2.00',
          low: '0.50',
          volume: '10',
          amount: '15.00',
          status: 'open',
        },
      ],
    });
  });

  it('streams every tick of a subscribed product in seq order without gaps, and only that product', async () => {
    const c = client();
    const seqs: number[] = [];
    c.on('tick', (t) => {
      expect(t.id).toBe('ETHUSDT');
      seqs.push(t.seq);
    });
    expect(await subscribe(c, ['ticks:ETHUSDT'])).toEqual({ ok: true });
    for (let s = 1; s <= 300; s++) {
      await sim.publish({ type: 'tick', tick: tick(s, 'ETHUSDT') });
      await sim.publish({ type: 'tick', tick: tick(s, 'BTCUSDT') });
    }
    await eventually(() => seqs.at(-1) === 300, 5000, 'ticks');
    // The first may be the latest-tick snapshot; after it, consecutive.
    const start = seqs[0]!;
    expect(seqs).toEqual(Array.from({ length: 300 - start + 1 }, (_, i) => start + i));
  });

  it('sends the latest tick at once on subscribe', async () => {
    await sim.publish({ type: 'tick', tick: tick(999, 'BTCUSDT') });
    await new Promise((r) => setTimeout(r, 20));
    const c = client();
    const first = new Promise<Tick>((r) => c.once('tick', r));
    await subscribe(c, ['ticks:BTCUSDT']);
    expect((await first).seq).toBe(999);
  });

  it('stops ticks after unsubscribe', async () => {
    const c = client();
    const seqs: number[] = [];
    c.on('tick', (t) => seqs.push(t.seq));
    await subscribe(c, ['ticks:ETHUSDT']);
    await sim.publish({ type: 'tick', tick: tick(1000, 'ETHUSDT') });
    await eventually(() => seqs.includes(1000));
    const ack = await new Promise<SubscribeAck>((r) => c.emit('unsubscribe', ['ticks:ETHUSDT'], r));
    expect(ack).toEqual({ ok: true });
    await sim.publish({ type: 'tick', tick: tick(1001, 'ETHUSDT') });
    await new Promise((r) => setTimeout(r, 150));
    expect(seqs).not.toContain(1001);
  });

  it('refuses bad channels with an error code and joins none of the batch', async () => {
    const c = client();
    expect(await subscribe(c, ['weather'])).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    expect(await subscribe(c, ['ticks:NOPE'])).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(await subscribe(c, 'market')).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    expect(await subscribe(c, [])).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    expect(await subscribe(c, [42])).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    const seqs: number[] = [];
    c.on('tick', (t) => seqs.push(t.seq));
    expect(await subscribe(c, ['ticks:ETHUSDT', 'ticks:NOPE'])).toMatchObject({
      error: { code: 'NOT_FOUND' },
    });
    await sim.publish({ type: 'tick', tick: tick(2000, 'ETHUSDT') });
    await new Promise((r) => setTimeout(r, 150));
    expect(seqs).toEqual([]);
  });

  it('caps events per second per socket', async () => {
    const c = client();
    const answers = await Promise.all(Array.from({ length: 40 }, () => subscribe(c, ['market'])));
    const limited = answers.filter((a) => 'error' in a && a.error.code === 'RATE_LIMITED');
    expect(limited.length).toBeGreaterThanOrEqual(40 - 20);
    expect(answers.filter((a) => 'ok' in a).length).toBeLessThanOrEqual(20);
  });

  it('rejects a bad token with UNAUTHENTICATED and admits a good one to its user room', async () => {
    const bad = client({ token: 'bad' });
    const err = await new Promise<Error>((r) => bad.once('connect_error', r));
    expect(err.message).toBe('UNAUTHENTICATED');
    const good = client({ token: 'good' });
    const hello = await new Promise<{ userId: string | null }>((r) => good.once('hello', r));
    expect(hello.userId).toBe('user-1');
    const rooms = gateway.io.of('/').adapter.rooms;
    expect(rooms.get('user:user-1')?.size).toBe(1);
    // And to the room of its session, named by the token's hash as the api stores sessions.
    expect(rooms.get(sessionRoom(sessionTokenHash('good')))?.size).toBe(1);
  });

  it('refuses with UNAVAILABLE, not UNAUTHENTICATED, when the token cannot be checked now', async () => {
    const c = client({ token: 'flaky' });
    const err = await new Promise<Error>((r) => c.once('connect_error', r));
    expect(err.message).toBe('UNAVAILABLE');
  });

  it('drops a socket whose session ended while it was being admitted, before any user event', async () => {
    const c = client({ token: 'racy' });
    const events: string[] = [];
    c.onAny((event: string) => events.push(event));
    const reason = await new Promise<string>((r) => c.once('disconnect', r));
    expect(reason).toBe('io server disconnect');
    expect(events).toEqual([]); // not even hello: it never joined its user room
    expect(racyChecks).toBe(2);
    expect(gateway.io.of('/').adapter.rooms.get('user:user-2')).toBeUndefined();
  });
});
