import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import pino from 'pino';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { oneAddressLimits } from '@tests/support/socket-limits';
import { eventually } from '@tests/support/wait';
import { healthServer } from '../main/process-helpers';
import { createGateway } from './gateway';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const SOCKETS = 20;
const DRAIN_MS = 2000;

/**
 * A closing gateway fails readiness first, then closes its sockets' connections in batches
 * spread over its drain window (each client reconnects, elsewhere).
 */
describe('gateway drain', () => {
  const clients: Client[] = [];
  afterAll(() => {
    for (const c of clients) c.disconnect();
  });

  it('fails /readyz, then spreads the disconnects over the window', async () => {
    const log = pino({ level: 'silent' });
    let draining = () => false;
    const server = healthServer({ accepting: () => !draining() }, log);
    const gateway = await createGateway(server, {
      bus: createMemoryBus(createMemoryHub()),
      log,
      productIds: new Set(['BTCUSDT']),
      connectionLimits: oneAddressLimits,
      drainMs: DRAIN_MS,
    });
    draining = () => gateway.draining();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    const gone: { at: number; reason: string }[] = [];
    for (let i = 0; i < SOCKETS; i++) {
      const c: Client = connect(url, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
      });
      c.on('disconnect', (reason) => gone.push({ at: Date.now(), reason }));
      clients.push(c);
    }
    await eventually(() => clients.every((c) => c.connected), 10_000, 'every socket connected');

    const closed = gateway.close();
    expect(gateway.draining()).toBe(true);
    // Not ready while sockets are still leaving: the balancer sends nobody new meanwhile.
    const readiness = await fetch(`${url}/readyz`);
    expect(readiness.status).toBe(503);
    expect(((await readiness.json()) as { checks: object }).checks).toEqual({ accepting: false });
    expect(clients.some((c) => c.connected)).toBe(true);
    await closed;

    expect(gone).toHaveLength(SOCKETS);
    // A lost connection, which every socket.io client reconnects after by itself.
    expect(new Set(gone.map((g) => g.reason))).toEqual(new Set(['transport close']));
    // Spread: the last left at least half the window after the first (timers only run late).
    const times = gone.map((g) => g.at);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(DRAIN_MS / 2);
  });
});
