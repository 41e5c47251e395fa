import http from 'node:http';
import type { AddressInfo, Socket as NetSocket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import pino from 'pino';
import type { MarketState, ProductState } from '@shared/bus';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { createMetrics } from '../platform/metrics';
import { userRoom } from '../platform/user-events';
import { oneAddressLimits } from '@tests/support/socket-limits';
import { createGateway, type Gateway } from './gateway';

/**
 * 500 clients that read and 50 that stop reading (their TCP socket paused, so the gateway's
 * writes pile up in its send buffer). Raw Engine.IO/Socket.IO clients over `ws`: light enough for
 * 550 in one process, and able to stop reading, which socket.io-client cannot.
 */
const READERS = 500;
const STALLED = 50;
const limits = { conflateBytes: 16 * 1024, disconnectBytes: 128 * 1024 };

const hub = createMemoryHub();
const sim = createMemoryBus(hub);
const metrics = createMetrics('gateway');
let gateway: Gateway;
let url: string;

interface RawClient {
  ws: WebSocket;
  seqs: number[];
  acks: Map<number, (a: unknown) => void>;
  closed: boolean;
}

function rawClient(token?: string): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
    const c: RawClient = { ws, seqs: [], acks: new Map(), closed: false };
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text[0] === '0') ws.send(token ? `40${JSON.stringify({ token })}` : '40');
      else if (text === '2') ws.send('3');
      else if (text.startsWith('40')) resolve(c);
      else if (text.startsWith('44')) reject(new Error(text));
      else if (text.startsWith('42["tick",'))
        c.seqs.push((JSON.parse(text.slice(2)) as [string, { seq: number }])[1].seq);
      else if (text.startsWith('43')) {
        const m = /^43(\d+)(.*)$/.exec(text)!;
        c.acks.get(Number(m[1]))?.((JSON.parse(m[2]!) as unknown[])[0]);
      }
    });
    ws.on('close', () => (c.closed = true));
    ws.on('error', reject);
  });
}

let ackIds = 0;
const subscribe = (c: RawClient, channels: string[]) =>
  new Promise<unknown>((resolve) => {
    const id = ackIds++;
    c.acks.set(id, resolve);
    c.ws.send(`42${id}${JSON.stringify(['subscribe', channels])}`);
  });

const product = (i: number): ProductState => ({
  id: `P${String(i).padStart(3, '0')}USDT`,
  status: 'open',
  last: { id: `P${i}`, seq: 1, ts: 1, price: '12345.67' },
  stats: {
    open: '1.00',
    high: '2.00',
    low: '0.50',
    last: '1.50',
    change: '0.50',
    changePct: '50.00',
    volume: '123456789',
    amount: '987654321.00',
  },
});
// A market snapshot of 120 products: about 20 KB a message, so the stalled sockets' kernel
// buffers fill in seconds.
const products = Array.from({ length: 120 }, (_, i) => product(i));
const market = (ts: number): MarketState => ({ ts, products });
const value = async (name: 'conflated' | 'disconnected') =>
  (await metrics.slowConsumers.get()).values.find((v) => v.labels.action === name)?.value ?? 0;

beforeAll(async () => {
  const server = http.createServer();
  gateway = await createGateway(server, {
    bus: createMemoryBus(hub),
    log: pino({ level: 'silent' }),
    productIds: new Set(['BTCUSDT']),
    authenticate: (token) => Promise.resolve(token.startsWith('stalled-') ? token : null),
    metrics,
    connectionLimits: oneAddressLimits, // every client here is 127.0.0.1
    backlog: limits,
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await gateway.close();
});

describe('slow consumers', { timeout: 120_000 }, () => {
  it('conflates then disconnects 50 clients that stopped reading; 500 readers get every tick', async () => {
    const readers: RawClient[] = [];
    for (let i = 0; i < READERS; i += 50)
      readers.push(...(await Promise.all(Array.from({ length: 50 }, () => rawClient()))));
    await Promise.all(readers.map((c) => subscribe(c, ['ticks:BTCUSDT'])));
    const stalled = await Promise.all(
      Array.from({ length: STALLED }, (_, i) => rawClient(`stalled-${i}`)),
    );
    await Promise.all(stalled.map((c) => subscribe(c, ['market', 'ticks:BTCUSDT'])));
    // From here on they read nothing: the kernel buffers fill, then the gateway's.
    for (const c of stalled) (c.ws as unknown as { _socket: NetSocket })._socket.pause();

    // The bound: a socket's backlog passes a limit by at most one message before the policy acts
    // on it (a market message ≤ 25 KB, a user event below 17 KB here), so the gateway holds at
    // most this for the stalled sockets, the readers' backlogs aside (they read: near zero).
    const perSocket = limits.disconnectBytes + 32 * 1024;
    const bound = STALLED * perSocket + READERS * 4 * 1024;
    let peak = 0;
    const note = (b: number) => (peak = Math.max(peak, b));

    let seq = 0;
    const publishSome = async (n: number) => {
      for (let i = 0; i < n; i++) {
        seq++;
        await sim.publish({
          type: 'tick',
          tick: { id: 'BTCUSDT', seq, ts: Date.now(), price: `${100 + seq}.00` },
        });
        if (seq % 2 === 0) await sim.publish({ type: 'market', market: market(seq) });
        await new Promise((r) => setImmediate(r));
        note(gateway.backlogBytes());
      }
    };

    // Market data alone: every stalled socket ends up conflated (its backlog stops growing).
    await expect
      .poll(
        async () => {
          await publishSome(20);
          return value('conflated');
        },
        { timeout: 60_000, interval: 1 },
      )
      .toBe(STALLED);
    expect(await value('disconnected')).toBe(0);
    expect(await metrics.conflated.get().then((m) => m.values[0]?.value ?? 0)).toBeGreaterThan(0);

    // User events are never conflated: they pile up until the stalled sockets are disconnected.
    // 16 KB each: the paused sockets' kernel buffers (megabytes on loopback) fill first, and at
    // 2 KB a CI machine loaded by other suites took more than the minute to fill them.
    await expect
      .poll(
        async () => {
          await publishSome(5);
          for (let i = 0; i < STALLED; i++)
            gateway.io
              .to(userRoom(`stalled-${i}`))
              .emit('message', { id: String(seq), title: 'x'.repeat(16_000) });
          note(gateway.backlogBytes());
          return value('disconnected');
        },
        { timeout: 60_000, interval: 1 },
      )
      .toBe(STALLED);
    await publishSome(20);

    // Every reader: every tick, in order, no gap, still connected.
    const last = seq;
    await expect
      .poll(() => readers.every((c) => c.seqs.at(-1) === last), { timeout: 30_000 })
      .toBe(true);
    for (const c of readers) {
      expect(c.closed).toBe(false);
      const first = c.seqs[0]!;
      expect(c.seqs).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
    }
    console.log(
      `peak backlog ${(peak / 2 ** 20).toFixed(2)} MiB (bound ${(bound / 2 ** 20).toFixed(2)} MiB)`,
    );
    expect(peak).toBeLessThanOrEqual(bound);
    expect(gateway.io.of('/').sockets.size).toBe(READERS);
    for (const c of [...readers, ...stalled]) c.ws.terminate();
  });
});
