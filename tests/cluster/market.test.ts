import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { MarketSnapshot, Tick } from '@shared/market/model';
import type { Product } from '@shared/product';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import { eventually } from '@tests/support/wait';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';

/** sim → Redis → gateway → client, and the api reading the same tape, as separate processes. */
describe('market data across processes (PostgreSQL + Redis)', { timeout: 120_000 }, () => {
  let t: TestDb;
  const procs: RunningProcess[] = [];
  let gatewayUrl = '';
  let apiUrl = '';

  beforeAll(async () => {
    t = await openTestDb('postgres');
    const env = {
      DATABASE_URL: urlWithSchema(t.url!, t.schema!),
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_NAMESPACE: `test-${randomBytes(3).toString('hex')}`,
      SIM_BACKFILL_HOURS: '1',
      SIM_TICKS_PER_SECOND: '5',
      LOG_LEVEL: 'warn',
    };
    const [simPort, gatewayPort, apiPort] = await Promise.all([freePort(), freePort(), freePort()]);
    procs.push(startEntry('server/src/main/sim.ts', { ...env, PORT: String(simPort) }));
    await waitForHttp(`http://127.0.0.1:${simPort}/readyz`, 200, 60_000);
    procs.push(startEntry('server/src/main/gateway.ts', { ...env, PORT: String(gatewayPort) }));
    procs.push(startEntry('server/src/main/api.ts', { ...env, PORT: String(apiPort) }));
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    apiUrl = `http://127.0.0.1:${apiPort}`;
    await Promise.all([waitForHttp(`${gatewayUrl}/readyz`), waitForHttp(`${apiUrl}/readyz`)]);
  }, 120_000);

  afterAll(async () => {
    const codes = await Promise.all(procs.map((p) => p.stop('SIGTERM')));
    await t.drop();
    expect(codes).toEqual([0, 0, 0]);
  });

  it('a client of the gateway receives the simulator ticks in seq order without gaps, and snapshots', async () => {
    const c: Socket<ServerToClientEvents, ClientToServerEvents> = connect(gatewayUrl, {
      transports: ['websocket'],
      reconnection: false,
    });
    try {
      const ticks: Tick[] = [];
      const snapshots: MarketSnapshot[] = [];
      c.on('tick', (tk) => ticks.push(tk));
      c.on('market', (m) => snapshots.push(m));
      const ack = await new Promise((r) => c.emit('subscribe', ['ticks:BTCUSDT', 'market'], r));
      expect(ack).toEqual({ ok: true });
      await eventually(
        () => ticks.length >= 15 && snapshots.length >= 2,
        15_000,
        'ticks and snapshots',
      );
      const seqs = ticks.map((tk) => tk.seq);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
      expect(snapshots.at(-1)!.products).toHaveLength(12);
      // What the client saw is on the tape, price for price.
      const res = await fetch(
        `${apiUrl}/api/market/ticks?product=BTCUSDT&from=${ticks[0]!.ts}&to=${ticks.at(-1)!.ts}&limit=1000`,
      );
      const tape = (await res.json()) as { seq: number; price: string }[];
      const onTape = new Map(tape.map((r) => [r.seq, r.price]));
      for (const tk of ticks.slice(0, -3)) expect(onTape.get(tk.seq)).toBe(tk.price);
    } finally {
      c.disconnect();
    }
  });

  it('the api serves live prices from the bus and history from the tape', async () => {
    const first = (await (await fetch(`${apiUrl}/api/market/products/BTCUSDT`)).json()) as Product;
    await new Promise((r) => setTimeout(r, 1500));
    const second = (await (await fetch(`${apiUrl}/api/market/products/BTCUSDT`)).json()) as Product;
    expect(second.last!.seq).toBeGreaterThan(first.last!.seq);
    expect(Number(second.stats24h.volume)).toBeGreaterThan(0);
    const candles = (await (
      await fetch(`${apiUrl}/api/market/candles?product=BTCUSDT&interval=1m&limit=100`)
    ).json()) as unknown[];
    expect(candles.length).toBeGreaterThanOrEqual(60);
  });
});
