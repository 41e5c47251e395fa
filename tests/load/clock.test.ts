import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from './load';
import { buildReport } from './report';
import { scenarioSchema } from './scenario';

/**
 * A gateway whose clock (and simulator's) runs 5 s ahead of this host's: without the correction
 * every latency is negative; with `clock: sync` the `time` answer gives the offset and the
 * latencies come out as on one clock.
 */
const AHEAD_MS = 5000;
let io: Server;
let url: string;
let timer: NodeJS.Timeout;

beforeAll(async () => {
  const server = http.createServer();
  io = new Server(server, { transports: ['websocket'] });
  io.on('connection', (socket) => {
    socket.on('subscribe', (channels: string[], ack: (a: unknown) => void) => {
      void socket.join(channels);
      ack({ ok: true });
    });
    socket.on('time', (ack: (a: unknown) => void) => ack({ serverTime: Date.now() + AHEAD_MS }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let seq = 0;
  timer = setInterval(() => {
    // Stamped 200 ms before it leaves, as a simulator behind a bus would: far more than the
    // offset's error (half a round trip), so no corrected latency can come out below zero.
    const tick = { id: 'X', seq: ++seq, ts: Date.now() + AHEAD_MS - 200, price: '1' };
    io.to('ticks:X').emit('tick', tick);
  }, 50);
});

afterAll(async () => {
  clearInterval(timer);
  await new Promise((r) => void io.close(() => r(undefined)));
});

const run = async (clock: 'local' | 'sync') =>
  buildReport(
    await runScenario(
      scenarioSchema.parse({
        targets: [url],
        phases: [
          { kind: 'ramp', to: 5, duration: 0.5 },
          { kind: 'hold', duration: 2.5 },
        ],
        subscribers: { channels: ['ticks:X'] },
        sample: 0,
        clock,
      }),
      { progress: () => {} },
    ),
  );

describe('clock offset from the gateway `time` event', () => {
  it('corrects latencies by the measured offset when asked', async () => {
    const local = await run('local');
    expect(local.errors.clockSkew).toBeGreaterThan(0); // every tick "from the future"
    expect(local.clock).toMatchObject({ applied: false, offsetMs: 0 });

    const synced = await run('sync');
    expect(synced.clock!.applied).toBe(true);
    expect(Math.abs(synced.clock!.offsetMs - AHEAD_MS)).toBeLessThan(synced.clock!.rttMs + 50);
    expect(synced.errors.clockSkew).toBe(0);
    expect(synced.tickLatency.count).toBeGreaterThan(0);
    expect(synced.tickLatency.max).toBeLessThan(AHEAD_MS); // not off by the 5 s
  });
});
