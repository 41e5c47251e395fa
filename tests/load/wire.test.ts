import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import type { Tick } from '@shared/market/model';
import {
  decodeFrame,
  encodeConnect,
  encodeEvent,
  engineUrl,
  LightClient,
  type LightClientSink,
} from './wire';

describe('encoding', () => {
  it('builds the Engine.IO websocket URL from an http base', () => {
    expect(engineUrl('http://127.0.0.1:3000')).toBe(
      'ws://127.0.0.1:3000/socket.io/?EIO=4&transport=websocket',
    );
    expect(engineUrl('https://example.test/')).toBe(
      'wss://example.test/socket.io/?EIO=4&transport=websocket',
    );
    // A path would be dropped (the gateway serves /socket.io/ at its root): refused instead.
    expect(() => engineUrl('https://example.test/app')).toThrow(/without a path/);
  });

  it('encodes CONNECT with and without auth', () => {
    expect(encodeConnect()).toBe('40');
    expect(encodeConnect({ token: 'abc' })).toBe('40{"token":"abc"}');
  });

  it('encodes a subscribe with its ack id between type and body', () => {
    expect(encodeEvent('subscribe', [['market', 'ticks:BTCUSDT']], 0)).toBe(
      '420["subscribe",["market","ticks:BTCUSDT"]]',
    );
    expect(encodeEvent('subscribe', [['market']], 12)).toBe('4212["subscribe",["market"]]');
    expect(encodeEvent('time', [])).toBe('42["time"]');
  });
});

describe('decodeFrame', () => {
  it('reads the Engine.IO open packet', () => {
    const f = decodeFrame(
      '0{"sid":"abc","upgrades":[],"pingInterval":20000,"pingTimeout":20000,"maxPayload":16384}',
    );
    expect(f).toEqual({ kind: 'open', sid: 'abc', pingInterval: 20000, pingTimeout: 20000 });
  });

  it('reads engine ping, close and noop', () => {
    expect(decodeFrame('2')).toEqual({ kind: 'ping' });
    expect(decodeFrame('1')).toEqual({ kind: 'close' });
    expect(decodeFrame('6')).toEqual({ kind: 'noop' });
  });

  it('reads CONNECT, CONNECT_ERROR and DISCONNECT', () => {
    expect(decodeFrame('40{"sid":"s1"}')).toEqual({ kind: 'connect', sid: 's1' });
    expect(decodeFrame('44{"message":"UNAUTHENTICATED"}')).toEqual({
      kind: 'connect_error',
      message: 'UNAUTHENTICATED',
    });
    expect(decodeFrame('41')).toEqual({ kind: 'disconnect' });
  });

  it('reads a tick', () => {
    const tick: Tick = { id: 'BTCUSDT', seq: 42, ts: 1767225600123, price: '97000.12' };
    expect(decodeFrame(`42["tick",${JSON.stringify(tick)}]`)).toEqual({ kind: 'tick', tick });
  });

  it('reads only the ts of a market snapshot, whatever follows', () => {
    expect(decodeFrame('42["market",{"ts":1767225600000,"products":[{"id":"X"}]}]')).toEqual({
      kind: 'market',
      ts: 1767225600000,
    });
    // Other key order: the slow path still finds it.
    expect(decodeFrame('42["market",{"products":[],"ts":5}]')).toEqual({ kind: 'market', ts: 5 });
  });

  it('reads hello and other events', () => {
    expect(decodeFrame('42["hello",{"serverTime":7,"userId":null}]')).toEqual({
      kind: 'hello',
      serverTime: 7,
    });
    expect(decodeFrame('42["product",{"id":"X","status":"closed"}]')).toEqual({
      kind: 'event',
      name: 'product',
      args: [{ id: 'X', status: 'closed' }],
    });
  });

  it('reads acks with their id', () => {
    expect(decodeFrame('430[{"ok":true}]')).toEqual({ kind: 'ack', id: 0, args: [{ ok: true }] });
    expect(decodeFrame('4317[{"error":{"code":"NOT_FOUND"}}]')).toEqual({
      kind: 'ack',
      id: 17,
      args: [{ error: { code: 'NOT_FOUND' } }],
    });
  });

  it('never throws on garbage or other namespaces', () => {
    expect(decodeFrame('42["tick",{oops]').kind).toBe('unknown');
    expect(decodeFrame('42/admin,["x"]').kind).toBe('unknown');
    expect(decodeFrame('').kind).toBe('unknown');
    expect(decodeFrame('43[{"ok":true}]').kind).toBe('unknown');
  });
});

describe('LightClient against a real Socket.IO server', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('connects, subscribes with an ack, answers pings and receives events', async () => {
    const server = http.createServer();
    // A short ping interval proves the pong: without it the server drops the socket.
    const io = new Server(server, { transports: ['websocket'], pingInterval: 50, pingTimeout: 50 });
    io.on('connection', (socket) => {
      socket.emit('hello', { serverTime: Date.now(), userId: null });
      socket.on('subscribe', (channels: string[], ack: (a: unknown) => void) => {
        void socket.join(channels);
        ack({ ok: true });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    close = () => new Promise((r) => void io.close(() => r()));
    const { port } = server.address() as AddressInfo;

    const seen = {
      connected: 0,
      acks: [] as unknown[],
      ticks: [] as Tick[],
      markets: 0,
      closed: 0,
    };
    const sink: LightClientSink = {
      connected: () => seen.connected++,
      subscribed: (_c, a) => seen.acks.push(a),
      tick: (_c, t) => seen.ticks.push(t),
      market: () => seen.markets++,
      failed: (_c, why) => {
        throw new Error(why);
      },
      closed: () => seen.closed++,
    };
    const client = new LightClient(
      { url: `http://127.0.0.1:${port}`, channels: ['market', 'ticks:BTCUSDT'] },
      sink,
    );
    await waitFor(() => seen.acks.length === 1);
    expect(seen.acks[0]).toEqual({ ok: true });
    expect(client.state).toBe('subscribed');

    await new Promise((r) => setTimeout(r, 300)); // several ping rounds
    const tick: Tick = { id: 'BTCUSDT', seq: 1, ts: Date.now(), price: '1.00' };
    io.to('ticks:BTCUSDT').emit('tick', tick);
    io.to('market').emit('market', { ts: 9, products: [] });
    await waitFor(() => seen.ticks.length === 1 && seen.markets === 1);
    expect(seen.ticks[0]).toEqual(tick);
    expect(seen.closed).toBe(0);

    client.close();
    await client.whenClosed();
    expect(seen.closed).toBe(1);
  });
});

describe('LightClient as a signed-in trader', () => {
  it('sends its auth, skips an empty subscribe, hands on user events and answers requests', async () => {
    const server = http.createServer();
    const io = new Server(server, { transports: ['websocket'] });
    const subscribes: unknown[] = [];
    io.on('connection', (socket) => {
      const { token } = socket.handshake.auth as { token?: string };
      socket.emit('hello', { serverTime: 5, userId: token === 'tok' ? '7' : null });
      socket.on('subscribe', (c: unknown) => subscribes.push(c));
      socket.on('time', (ack: (a: unknown) => void) => ack({ serverTime: 123 }));
      socket.emit('order', { id: '1', status: 'open' });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const events: [string, unknown[]][] = [];
    const sink: LightClientSink = {
      connected: () => {},
      subscribed: () => {},
      tick: () => {},
      market: () => {},
      failed: (_c, why) => {
        throw new Error(why);
      },
      closed: () => {},
      event: (_c, name, args) => events.push([name, args]),
    };
    const client = new LightClient(
      { url: `http://127.0.0.1:${port}`, channels: [], auth: { token: 'tok' } },
      sink,
    );
    await waitFor(() => events.length === 2);
    expect(events).toEqual([
      ['hello', [{ serverTime: 5 }]],
      ['order', [{ id: '1', status: 'open' }]],
    ]);
    expect(await client.request('time')).toEqual([{ serverTime: 123 }]);
    expect(subscribes).toEqual([]);
    client.close();
    await client.whenClosed();
    await new Promise((r) => void io.close(() => r(undefined)));
  });
});

async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
