import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { WebSocket } from 'ws';
import pino from 'pino';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { createMetrics } from '../platform/metrics';
import { createGateway, type Gateway } from './gateway';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Per-address connection limits through a real gateway. The clients all run here on 127.0.0.1
 * and name their address in X-Forwarded-For, which the gateway believes from a loopback peer
 * (TRUST_PROXY=loopback, as behind a local proxy).
 */
const hub = createMemoryHub();
const metrics = createMetrics('gateway');
const clients: Client[] = [];
const gateways: Gateway[] = [];

async function startGateway(trustProxy: string) {
  const server = http.createServer();
  const gateway = await createGateway(server, {
    bus: createMemoryBus(hub),
    log: pino({ level: 'silent' }),
    productIds: new Set(['BTCUSDT']),
    metrics,
    connectionLimits: { perMinute: 5, maxPerAddress: 3 },
    trustProxy,
  });
  gateways.push(gateway);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { gateway, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let proxied: { gateway: Gateway; url: string };
let direct: { gateway: Gateway; url: string };

beforeAll(async () => {
  proxied = await startGateway('loopback');
  // Trusts only a proxy elsewhere: a client's own X-Forwarded-For must count for nothing.
  direct = await startGateway('10.0.0.0/8');
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await Promise.all(gateways.map((g) => g.close()));
});

function client(url: string, address: string): Client {
  const c: Client = connect(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: { 'x-forwarded-for': address },
  });
  clients.push(c);
  return c;
}

/** Resolves 'connected' or the connect_error's message. */
const outcome = (c: Client) =>
  new Promise<string>((resolve) => {
    c.once('connect', () => resolve('connected'));
    c.once('connect_error', (err) => resolve(err.message));
  });
const open = (url: string, address: string) => {
  const c = client(url, address);
  return outcome(c).then((result) => ({ c, result }));
};
const refusals = async (reason: string) =>
  (await metrics.connectionsRefused.get()).values.find((v) => v.labels.reason === reason)?.value ??
  0;

describe('socket limits per client address', () => {
  it('caps open sockets per address, refusing RATE_LIMITED; another address is unaffected; closing frees a place', async () => {
    const { url, gateway } = proxied;
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await open(url, '198.51.100.1'));
    expect(held.map((h) => h.result)).toEqual(['connected', 'connected', 'connected']);
    const before = await refusals('concurrency');
    expect((await open(url, '198.51.100.1')).result).toBe('RATE_LIMITED');
    expect(await refusals('concurrency')).toBe(before + 1);
    expect((await open(url, '198.51.100.2')).result).toBe('connected');

    held[0]!.c.disconnect();
    // The server hears the close (its engine count falls), then the place is free again.
    await expect.poll(() => gateway.io.engine.clientsCount, { timeout: 10_000 }).toBe(3);
    expect((await open(url, '198.51.100.1')).result).toBe('connected');
  });

  it('limits new sockets per address per minute, refusing RATE_LIMITED; another address is unaffected', async () => {
    const { url } = proxied;
    const before = await refusals('rate');
    const results: string[] = [];
    // One at a time, each closed before the next: only the rate can refuse.
    for (let i = 0; i < 6; i++) {
      const { c, result } = await open(url, '203.0.113.9');
      results.push(result);
      c.disconnect();
    }
    expect(results).toEqual([...Array<string>(5).fill('connected'), 'RATE_LIMITED']);
    expect(await refusals('rate')).toBe(before + 1);
    expect((await open(url, '203.0.113.10')).result).toBe('connected');
  });

  it('closes a refused connection itself, answered or silent', async () => {
    const { url } = proxied;
    for (let i = 0; i < 5; i++) (await open(url, '192.0.2.50')).c.disconnect();
    // Raw Engine.IO clients, which need not close on a refusal as socket.io-client does.
    const raw = (sendConnect: boolean) =>
      new Promise<string[]>((resolve, reject) => {
        const frames: string[] = [];
        const ws = new WebSocket(
          `${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`,
          {
            headers: { 'x-forwarded-for': '192.0.2.50' },
          },
        );
        ws.on('message', (data: Buffer) => {
          const frame = data.toString();
          frames.push(frame);
          if (frame.startsWith('0') && sendConnect) ws.send('40'); // CONNECT to "/"
        });
        ws.on('close', () => resolve(frames));
        ws.on('error', reject);
      });
    const [answered, silent] = await Promise.all([raw(true), raw(false)]);
    expect(answered[0]).toMatch(/^0\{/); // Engine.IO open
    expect(answered).toContain('44{"message":"RATE_LIMITED"}');
    expect(silent).toHaveLength(1);
  });

  it('does not believe X-Forwarded-For from a peer TRUST_PROXY does not name', async () => {
    const { url } = direct;
    const results = [];
    // Every one claims another address; all are 127.0.0.1 to this gateway, capped at 3 open.
    for (let i = 1; i <= 4; i++) results.push((await open(url, `198.51.100.${i}`)).result);
    expect(results).toEqual(['connected', 'connected', 'connected', 'RATE_LIMITED']);
  });
});
