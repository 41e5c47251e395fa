import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import pino from 'pino';
import type { z } from 'zod';
import type { opsDashboardDto } from '@shared/contract/answers';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { createGateway, type Gateway } from '@server/gateway/gateway';
import { lagWindow, startProcessReporter } from '@server/platform/process-reports';
import { openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, type TestApi } from '@tests/support/api';
import { oneAddressLimits } from '@tests/support/socket-limits';
import { eventually } from '@tests/support/wait';
import { opsAuth } from '@tests/support/wallet';

type Live = z.infer<typeof opsDashboardDto>['live'];

/**
 * Issue 20: the dashboard's live figures come from the processes themselves. A real gateway with
 * real sockets and a settling process report over the bus as the production entry points wire
 * them (all.ts); the api's dashboard shows what they said.
 */
const hub = createMemoryHub();
let t: TestDb;
let api: TestApi;
let gateway: Gateway;
let url: string;
const sockets: Socket[] = [];
const lags = lagWindow();
let reporter: { stop: () => void };

beforeAll(async () => {
  t = await openTestDb('pglite');
  api = await buildTestApi(t.db, { bus: createMemoryBus(hub) });
  const server = http.createServer();
  gateway = await createGateway(server, {
    bus: createMemoryBus(hub),
    log: pino({ level: 'silent' }),
    productIds: new Set(['BTCUSDT']),
    connectionLimits: oneAddressLimits,
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  reporter = startProcessReporter({
    bus: createMemoryBus(hub),
    role: 'all',
    gateway: gateway.figures,
    settlement: lags.read,
    everyMs: 50,
  });
});
afterAll(async () => {
  reporter?.stop();
  for (const s of sockets) s.disconnect();
  await gateway?.close();
  await api?.close();
  await t?.drop();
});

const live = async () =>
  ((await api.http.get('/api/ops/dashboard').set(opsAuth).expect(200)).body as { live: Live }).live;

it('shows the sockets a gateway holds, the ticks it hears and the settlement lag', async () => {
  for (let i = 0; i < 3; i++)
    sockets.push(connect(url, { transports: ['websocket'], forceNew: true, reconnection: false }));
  await eventually(() => sockets.every((s) => s.connected), 5000, 'three sockets connected');
  for (const ms of [80, 120, 900]) lags.add(ms);
  const sim = createMemoryBus(hub);
  let seq = 0;
  const ticking = setInterval(() => {
    seq++;
    void sim.publish({
      type: 'tick',
      tick: { id: 'BTCUSDT', seq, ts: Date.now(), price: `${100 + seq}.00` },
    });
  }, 10);
  try {
    // Reports go every 50 ms here; the tick rate is what the gateway heard between two.
    const figures = await vi.waitFor(
      async () => {
        const l = await live();
        expect([l.sockets, (l.ticksPerSecond ?? 0) > 0]).toEqual([3, true]);
        return l;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(figures.gateways).toHaveLength(1);
    expect(figures.gateways[0]!.sockets).toBe(3);
    expect(figures.settlement).toEqual({ settledLastMinute: 3, lagP50Ms: 120, lagP99Ms: 900 });
    expect(figures.processes).toBe(1);
  } finally {
    clearInterval(ticking);
    await sim.close();
  }
  // A socket leaves: the next report says so.
  sockets.pop()!.disconnect();
  await vi.waitFor(async () => expect((await live()).sockets).toBe(2), {
    timeout: 10_000,
    interval: 100,
  });
});
