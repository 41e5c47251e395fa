import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import pino from 'pino';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { oneAddressLimits } from '@tests/support/socket-limits';
import { createGateway, type Gateway } from './gateway';

/** The gateway's Socket.IO server at the wire: what a raw client that misbehaves gets. */
let gateway: Gateway;
let url: string;

beforeAll(async () => {
  const server = http.createServer((_req, res) => res.end('app'));
  gateway = await createGateway(server, {
    bus: createMemoryBus(createMemoryHub()),
    log: pino({ level: 'silent' }),
    productIds: new Set(['BTCUSDT']),
    connectionLimits: oneAddressLimits,
    pingIntervalMs: 200,
    pingTimeoutMs: 200,
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await gateway.close();
});

/** A raw client: its frames, and whether (and how) it was closed. */
function raw(query = '?EIO=4&transport=websocket') {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/${query}`);
  const frames: string[] = [];
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  ws.on('message', (d: Buffer) => frames.push(d.toString()));
  ws.on('error', () => {});
  const opened = new Promise<void>((r, reject) => {
    ws.once('open', () => r());
    ws.once('unexpected-response', (_req, res) => reject(new Error(String(res.statusCode))));
  });
  return { ws, frames, closed, opened };
}

describe('socket server', () => {
  it('answers Engine.IO open, CONNECT with the sid, and pings; a client that never pongs is closed', async () => {
    const c = raw();
    await c.opened;
    await expect.poll(() => c.frames.length).toBeGreaterThan(0);
    const open = JSON.parse(c.frames[0]!.slice(1)) as Record<string, unknown>;
    expect(open).toMatchObject({ upgrades: [], pingInterval: 200, pingTimeout: 200 });
    c.ws.send('40');
    await expect.poll(() => c.frames.some((f) => f.startsWith('40{"sid":'))).toBe(true);
    await expect.poll(() => c.frames.includes('2')).toBe(true); // a ping
    // Never answered: closed by the next sweep.
    await c.closed;
    expect(gateway.io.of('/').sockets.size).toBe(0);
  });

  it('keeps a client that answers its pings', async () => {
    const c = raw();
    c.ws.on('message', (d: Buffer) => {
      const f = d.toString();
      if (f.startsWith('0')) c.ws.send('40');
      if (f === '2') c.ws.send('3');
    });
    await expect.poll(() => c.frames.filter((f) => f === '2').length).toBeGreaterThanOrEqual(3);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it('refuses other namespaces, and closes on a binary frame or malformed JSON', async () => {
    const c = raw();
    await c.opened;
    c.ws.send('40/admin,');
    await expect.poll(() => c.frames).toContain('44/admin,{"message":"Invalid namespace"}');
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await c.closed;
    const d = raw();
    await d.opened;
    d.ws.send('40');
    await expect.poll(() => d.frames.some((f) => f.startsWith('40{'))).toBe(true);
    d.ws.send('42["subscribe",');
    await d.closed;
  });

  it('answers polling and other protocol versions 400, and leaves other requests to the app', async () => {
    const polling = await fetch(`${url}/socket.io/?EIO=4&transport=polling`);
    expect(polling.status).toBe(400);
    expect(await polling.json()).toEqual({ code: 0, message: 'Transport unknown' });
    await expect(raw('?EIO=3&transport=websocket').opened).rejects.toThrow('400');
    expect(await (await fetch(`${url}/anything`)).text()).toBe('app');
  });
});
