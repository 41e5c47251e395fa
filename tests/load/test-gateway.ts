import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { MarketState } from '@shared/bus';
import { createGateway, type Gateway } from '@server/gateway/gateway';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { oneAddressLimits } from '@tests/support/socket-limits';

/**
 * For the load tool's tests: the real gateway on the in-process bus, fed by a fake simulator that
 * ticks BTCUSDT every 50 ms and sends a market snapshot every second. `maxConnections` caps its
 * TCP connections as a proxy at its limit does: those over it are dropped before the upgrade.
 */
export interface TestGateway {
  url: string;
  gateway: Gateway;
  server: http.Server;
  stop(): Promise<void>;
}

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

export async function startTestGateway(o: { maxConnections?: number } = {}): Promise<TestGateway> {
  const hub = createMemoryHub();
  const sim = createMemoryBus(hub);
  const server = http.createServer();
  if (o.maxConnections !== undefined) server.maxConnections = o.maxConnections;
  const gateway = await createGateway(server, {
    bus: createMemoryBus(hub),
    log: pino({ level: 'silent' }),
    productIds: new Set(['BTCUSDT']),
    connectionLimits: oneAddressLimits, // every load client comes from 127.0.0.1
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let seq = 0;
  const market = (ts: number): MarketState => ({
    ts,
    products: [{ id: 'BTCUSDT', status: 'open', last: null, stats }],
  });
  const timer = setInterval(() => {
    const ts = Date.now();
    void sim.publish({ type: 'tick', tick: { id: 'BTCUSDT', seq: ++seq, ts, price: '1.00' } });
    if (seq % 20 === 0) void sim.publish({ type: 'market', market: market(ts) });
  }, 50);
  await sim.publish({ type: 'market', market: market(Date.now()) });
  return {
    url,
    gateway,
    server,
    async stop() {
      clearInterval(timer);
      await gateway.close();
    },
  };
}
