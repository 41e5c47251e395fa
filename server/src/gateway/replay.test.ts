import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import pino from 'pino';
import type { Tick } from '@shared/market/model';
import type {
  ClientToServerEvents,
  Hello,
  ServerToClientEvents,
  SubscribeAck,
  SubscribeOptions,
  TicksGap,
} from '@shared/socket';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { eventually } from '@tests/support/wait';
import { oneAddressLimits } from '@tests/support/socket-limits';
import { lateUserEvents, userEventRing } from '../platform/user-events';
import { createGateway, type Gateway } from './gateway';
import { TICK_RING_SIZE } from './tick-ring';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const hub = createMemoryHub();
const sim = createMemoryBus(hub);
const userEvents = lateUserEvents(userEventRing({ users: 100, perUser: 5 }));
let unreadable = false;
let gateway: Gateway;
let url: string;
const clients: Client[] = [];

/** A signed-in client and, in arrival order, what it heard of user events and its hello. */
function signedIn(auth: Record<string, unknown>) {
  const heard: (string | Hello)[] = [];
  const c: Client = connect(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth,
  });
  clients.push(c);
  c.on('balance', (_summary, meta) => heard.push(meta?.id ?? 'no id'));
  c.on('hello', (hello) => heard.push(hello));
  return { c, heard, hello: () => heard.find((h): h is Hello => typeof h !== 'string') };
}

const tick = (seq: number): Tick => ({ id: 'BTCUSDT', seq, ts: 1_000 + seq, price: '1.00' });
const subscribe = (c: Client, options?: SubscribeOptions) =>
  new Promise<SubscribeAck>((resolve) =>
    options
      ? c.emit('subscribe', ['ticks:BTCUSDT'], options, resolve)
      : c.emit('subscribe', ['ticks:BTCUSDT'], resolve),
  );

beforeAll(async () => {
  const server = http.createServer();
  gateway = await createGateway(server, {
    bus: createMemoryBus(hub),
    log: pino({ level: 'silent' }),
    productIds: new Set(['BTCUSDT']),
    authenticate: (token) => Promise.resolve(token === 'good' ? 'user-1' : null),
    replay: (userId, since) =>
      unreadable ? Promise.reject(new Error('redis away')) : userEvents.replay(userId, since),
    connectionLimits: oneAddressLimits,
  });
  userEvents.bind(gateway.io);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await gateway.close();
});

describe('user events replayed on reconnect', () => {
  const emitted = async (n: number) => {
    for (let i = 0; i < n; i++) userEvents.emit('user-1', 'balance', {} as never);
    return (await userEvents.replay('user-1', undefined)).lastEventId!;
  };

  it('sends the events after `since` before a hello that says the replay is complete', async () => {
    const since = await emitted(1);
    const after = [await emitted(1), await emitted(1)];
    const s = signedIn({ token: 'good', since });
    await eventually(() => s.hello() !== undefined, 5000, 'hello');
    expect(s.heard).toEqual([
      ...after,
      {
        serverTime: expect.any(Number),
        userId: 'user-1',
        replay: 'complete',
        lastEventId: after[1],
      },
    ]);
    // Live from then on, each with its id.
    const live = await emitted(1);
    await eventually(() => s.heard.includes(live), 5000, 'the live event');
  });

  it('says gap with the newest id when there is no `since`, it is trimmed, malformed or unreadable', async () => {
    const old = await emitted(1);
    const newest = await emitted(5); // the buffer holds 5: `old` is gone
    for (const auth of [{}, { since: old }, { since: 'yesterday' }]) {
      const s = signedIn({ token: 'good', ...auth });
      await eventually(() => s.hello() !== undefined, 5000, 'hello');
      expect(s.hello()).toMatchObject({ replay: 'gap', lastEventId: newest });
    }
    unreadable = true;
    const s = signedIn({ token: 'good', since: newest });
    await eventually(() => s.hello() !== undefined, 5000, 'hello');
    unreadable = false;
    expect(s.hello()).toMatchObject({ replay: 'gap', lastEventId: null });
  });

  it('says nothing of replays to an anonymous socket', async () => {
    const s = signedIn({ since: '1-0' });
    await eventually(() => s.hello() !== undefined, 5000, 'hello');
    expect(s.hello()).toEqual({ serverTime: expect.any(Number), userId: null });
  });
});

describe('ticks replayed on re-subscribe', () => {
  const listen = (c: Client) => {
    const heard: (number | TicksGap)[] = [];
    c.on('tick', (t) => heard.push(t.seq));
    c.on('ticksGap', (gap) => heard.push(gap));
    return heard;
  };
  const newest = TICK_RING_SIZE + 100;

  beforeAll(async () => {
    for (let seq = 1; seq <= newest; seq++) await sim.publish({ type: 'tick', tick: tick(seq) });
    const probe = signedIn({});
    const heard = listen(probe.c);
    await subscribe(probe.c);
    await eventually(() => heard.includes(newest), 5000, 'the newest tick');
  });

  it('sends every tick after the one the client holds', async () => {
    const { c } = signedIn({});
    const heard = listen(c);
    expect(await subscribe(c, { after: { BTCUSDT: newest - 3 } })).toEqual({ ok: true });
    await eventually(() => heard.includes(newest), 5000, 'the replay');
    expect(heard).toEqual([newest - 2, newest - 1, newest]);
  });

  it('tells the seqs it no longer holds as a gap, then sends what it has', async () => {
    const { c } = signedIn({});
    const heard = listen(c);
    await subscribe(c, { after: { BTCUSDT: 10 } });
    await eventually(() => heard.includes(newest), 5000, 'the replay');
    const oldest = newest - TICK_RING_SIZE + 1;
    expect(heard[0]).toEqual({ product: 'BTCUSDT', from: 11, to: oldest - 1 });
    expect(heard.slice(1)).toEqual(Array.from({ length: TICK_RING_SIZE }, (_, i) => oldest + i));
  });

  it('sends only the latest tick to a client that says nothing (older clients)', async () => {
    const { c } = signedIn({});
    const heard = listen(c);
    await subscribe(c);
    await eventually(() => heard.length > 0, 5000, 'the latest tick');
    expect(heard).toEqual([newest]);
    expect(await subscribe(c, { after: { BTCUSDT: -1 } })).toMatchObject({
      error: { code: 'VALIDATION_FAILED' },
    });
  });
});
