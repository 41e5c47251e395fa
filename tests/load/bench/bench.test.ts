import { describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { wsTextFrame } from '@server/gateway/rooms';
import { parseBenchArgs } from '../bench-gateway';
import { prebuiltTextFrame } from './frame';
import { packageOf, summarise } from './profile-summary';
import { formatResults, ratios, type PhaseResult } from './result';
import { createTickStream } from './stream';

describe('wsTextFrame (the gateway) and the floor framing (ws itself)', () => {
  it('build the same bytes at every length class, multi-byte text included', () => {
    for (const n of [0, 1, 125, 126, 127, 65_535, 65_536, 70_000]) {
      const text = 'x'.repeat(n);
      expect(wsTextFrame(text).equals(prebuiltTextFrame(text)), `length ${n}`).toBe(true);
    }
    const utf8 = '42["tick",{"price":"€ 1,00 — ✓"}]';
    expect(wsTextFrame(utf8).equals(prebuiltTextFrame(utf8))).toBe(true);
  });

  it('is read as one text message by a ws client', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => wss.once('listening', r));
    const text = `42${JSON.stringify(['market', { ts: 1, products: 'y'.repeat(300) }])}`;
    wss.once('connection', (ws) => {
      (ws as unknown as { _socket: { write(b: Buffer): void } })._socket.write(wsTextFrame(text));
    });
    const { port } = wss.address() as { port: number };
    const client = new WebSocket(`ws://127.0.0.1:${port}`);
    const got = await new Promise<string>((resolve) =>
      client.once('message', (data: Buffer, isBinary) =>
        resolve(isBinary ? 'binary' : data.toString()),
      ),
    );
    expect(got).toBe(text);
    client.close();
    await new Promise((r) => wss.close(r));
  });
});

describe('parseBenchArgs', () => {
  it('has the documented defaults and reads the flags', () => {
    expect(parseBenchArgs([])).toMatchObject({
      subscribers: 1000,
      durationSec: 10,
      only: ['a', 'b', 'c'],
      ticksPerSec: 10,
      gatewayScript: null,
      port: null,
      namespace: null,
    });
    expect(parseBenchArgs(['--port', '4100', '--namespace', 'mybench'])).toMatchObject({
      port: 4100,
      namespace: 'mybench',
    });
    expect(() => parseBenchArgs(['--namespace', 'a b'])).toThrow(/--namespace/);
    expect(
      parseBenchArgs('--subscribers 2000 --duration 20 --only c,b --tick-rate 5'.split(' ')),
    ).toMatchObject({ subscribers: 2000, durationSec: 20, only: ['c', 'b'], ticksPerSec: 5 });
  });

  it('refuses bad values, overlong runs and a remote Redis', () => {
    expect(() => parseBenchArgs(['--subscribers', '0'])).toThrow(/--subscribers/);
    expect(() => parseBenchArgs(['--duration', '600'])).toThrow(/--duration/);
    expect(() => parseBenchArgs(['--only', 'd'])).toThrow(/--only/);
    expect(() => parseBenchArgs(['--redis', 'redis://10.0.0.5:6379'])).toThrow(/loopback/);
  });
});

const row = (id: PhaseResult['id'], cpu: number, p99: number, heap: number): PhaseResult => ({
  id,
  subscribers: 1000,
  subscribed: 1000,
  failed: 0,
  drops: 0,
  heapPerConn: heap,
  rssPerConn: 0,
  externalPerConn: 0,
  windowSec: 10,
  received: 110_000,
  sent: 110_000,
  cpuUsPerDelivery: cpu,
  systemUsPerDelivery: cpu / 2,
  serverCpuPct: 20,
  benchCpuPct: 30,
  tick: { count: 100_000, p50: p99 / 2, p90: p99, p99, p999: p99, max: p99 },
  firstReceipt: { count: 100, p50: 1, p90: 1, p99: 1, p999: 1, max: 1 },
  snapshot: { count: 10_000, p50: 1, p90: 1, p99: 1, p999: 1, max: 1 },
  loadAvg: { before: 1, after: 1 },
});

describe('results', () => {
  it('computes the ratios of (c) and says which aims are met', () => {
    const a = row('a', 12, 8, 11_000);
    const b = row('b', 4, 4, 4000);
    const c = row('c', 5, 5, 11_500);
    expect(ratios(c, a).cpu).toBeCloseTo(5 / 12);
    expect(ratios(c, b)).toMatchObject({ cpu: 1.25, p99: 1.25 });
    const text = formatResults([a, b, c]);
    expect(text).toContain('(c)/(a)  CPU per delivery 0.42× (user-space part 0.42×)');
    expect(text).toContain('CPU ≤ ⅓ of (a): NOT met');
    expect(text).toContain('CPU ≤ 1.5× (b): met');
    expect(text).toContain('p99 ≤ 10 ms: met');
    expect(text).toContain('heap ≤ 6 KB/connection: NOT met');
  });

  it('flags missing deliveries and drops', () => {
    const c = { ...row('c', 5, 5, 5000), received: 50_000, drops: 3 };
    const text = formatResults([c]);
    expect(text).toContain('3 connections dropped');
    expect(text).toContain('received 50000 of 110000 sent in the window');
  });
});

describe('the tick stream', () => {
  it('is deterministic, with seq growing by one and the market state of the whole catalogue', () => {
    const [s1, s2] = [createTickStream(), createTickStream()];
    const a = [s1.tick(1), s1.tick(2)];
    expect([s2.tick(1), s2.tick(2)]).toEqual(a);
    expect(a.map((t) => t.seq)).toEqual([1, 2]);
    const m = s1.market(3.7);
    expect(m.ts).toBe(3);
    expect(m.products.length).toBeGreaterThan(1);
    expect(m.products.find((p) => p.id === 'BTCUSDT')?.last).toEqual(a[1]);
  });
});

describe('profile summary', () => {
  it('attributes self time to functions and packages', () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
    const s = summarise({
      nodes: [
        { id: 1, callFrame: frame('(root)', '') },
        { id: 2, callFrame: frame('flush', 'file:///r/node_modules/engine.io/build/socket.js') },
        { id: 3, callFrame: frame('emit', 'node:events') },
        { id: 4, callFrame: frame('broadcast', 'file:///r/server/src/gateway/gateway.ts') },
      ],
      samples: [2, 2, 3, 4],
      timeDeltas: [1000, 1000, 500, 500],
      startTime: 0,
      endTime: 3000,
    });
    expect(s.totalMs).toBe(3);
    expect(s.packages[0]).toEqual({ name: 'engine.io', ms: 2 });
    expect(s.functions.map((f) => f.name)).toContain('broadcast gateway.ts:1 [app]');
    expect(packageOf('file:///r/node_modules/@socket.io/redis-adapter/dist/index.js', 'x')).toBe(
      '@socket.io/redis-adapter',
    );
    expect(packageOf('', '(garbage collector)')).toBe('(garbage collector)');
  });
});
