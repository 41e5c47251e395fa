import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketState } from '@shared/bus';
import { createGateway, type Gateway } from '@server/gateway/gateway';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { oneAddressLimits } from '@tests/support/socket-limits';
import { runLoad } from './load';

// runLoad end to end against the real gateway on the in-process bus, with a fake sim that ticks
// every 50 ms: checks the counting (live vs on-subscribe ticks, steady window, order checks).
const hub = createMemoryHub();
const sim = createMemoryBus(hub);
const stats = {
  open: '1',
  high: '1',
  low: '1',
  last: '1',
  change: '0',
  changePct: '0',
  volume: '0',
  amount: '0',
};
let gateway: Gateway;
let url: string;
let timer: NodeJS.Timeout;

beforeAll(async () => {
  const server = http.createServer();
  gateway = await createGateway(server, {
    bus: createMemoryBus(hub),
    log: pino({ level: 'silent' }),
    productIds: new Set(['BTCUSDT']),
    connectionLimits: oneAddressLimits, // every load client comes from 127.0.0.1
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let seq = 0;
  const market = (ts: number): MarketState => ({
    ts,
    products: [{ id: 'BTCUSDT', status: 'open', last: null, stats }],
  });
  timer = setInterval(() => {
    const ts = Date.now();
    void sim.publish({ type: 'tick', tick: { id: 'BTCUSDT', seq: ++seq, ts, price: '1.00' } });
    if (seq % 20 === 0) void sim.publish({ type: 'market', market: market(ts) });
  }, 50);
  await sim.publish({ type: 'market', market: market(Date.now()) });
});

afterAll(async () => {
  clearInterval(timer);
  await gateway.close();
});

describe('runLoad', () => {
  it('connects, counts deliveries and reports latency and order', async () => {
    const lines: string[] = [];
    const report = await runLoad({
      url,
      clients: 40,
      channels: ['market', 'ticks:BTCUSDT'],
      durationSec: 3,
      rampPerSec: 200,
      sample: 2,
      progress: (l) => lines.push(l),
    });
    expect(report.connect).toMatchObject({ connected: 40, failed: 0 });
    expect(report.subscribe).toEqual({ ok: 40, failed: 0 });
    expect(report.deliveries.initialTicks).toBe(40); // one last-known tick per subscribe
    expect(report.deliveries.steady).toBe(true);
    // 20 ticks/s to each of 40 clients (800/s); wide margin for timer slop on a busy machine.
    expect(report.deliveries.ticksPerSec).toBeGreaterThan(200);
    expect(report.tickLatency.count).toBeGreaterThan(0);
    expect(report.tickLatency.p50).toBeLessThan(1000);
    expect(report.firstReceiptLatency.count).toBeGreaterThan(0);
    expect(report.errors).toMatchObject({ disconnects: 0, subscribeFailures: 0, clockSkew: 0 });
    expect(report.sample).toMatchObject({ connected: 2, disconnects: 0 });
    expect(report.sample!.violations).toEqual({ backwards: 0, gaps: 0, missing: 0 });
    expect(report.sample!.ticks).toBeGreaterThan(0);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    // Every socket closed: the server sees them go shortly after.
    for (let i = 0; i < 100 && gateway.io.engine.clientsCount > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(gateway.io.engine.clientsCount).toBe(0);
  });

  it('refuses a remote target', async () => {
    await expect(
      runLoad({
        url: 'http://192.0.2.1:3000',
        clients: 1,
        channels: ['market'],
        durationSec: 1,
        rampPerSec: 1,
        sample: 0,
      }),
    ).rejects.toThrow(/loopback/);
  });
});
