import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Bus } from '@infra/bus';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { createRedisBus } from '@infra/bus/redis';
import { eventually } from '@tests/support/wait';
import { lagWindow, processBoard, rateMeter, startProcessReporter } from './process-reports';

/** A clock the test moves by hand. */
const manualClock = (start = 1_000_000) => {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

describe('the settlement lag window', () => {
  it('gives p50 and p99 by nearest rank over the last minute only', () => {
    const clock = manualClock();
    const w = lagWindow({ now: clock.now });
    expect(w.read()).toEqual({ settledLastMinute: 0, lagP50Ms: 0, lagP99Ms: 0 });
    // 1..100 ms: p50 is the 50th sample, p99 the 99th.
    for (let ms = 100; ms >= 1; ms--) w.add(ms);
    expect(w.read()).toEqual({ settledLastMinute: 100, lagP50Ms: 50, lagP99Ms: 99 });
    clock.advance(30_000);
    w.add(5000);
    // 101 samples: the 100th is the p99 (ceil(0.99 × 101)).
    expect(w.read()).toMatchObject({ settledLastMinute: 101, lagP99Ms: 100 });
    // The first hundred are more than a minute old now; only the slow one is left.
    clock.advance(30_001);
    expect(w.read()).toEqual({ settledLastMinute: 1, lagP50Ms: 5000, lagP99Ms: 5000 });
  });

  it('keeps the newest samples past its cap', () => {
    const w = lagWindow({ cap: 10 });
    for (let ms = 1; ms <= 30; ms++) w.add(ms);
    expect(w.read()).toEqual({ settledLastMinute: 10, lagP50Ms: 25, lagP99Ms: 30 });
  });
});

it('measures a rate per second since the last reading', () => {
  const clock = manualClock();
  const meter = rateMeter(clock.now);
  for (let i = 0; i < 25; i++) meter.mark();
  clock.advance(2000);
  expect(meter.perSecond()).toBe(12.5);
  clock.advance(1000);
  expect(meter.perSecond()).toBe(0);
});

const buses: Bus[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

describe.each([
  [
    'the in-process bus',
    () => {
      const hub = createMemoryHub();
      return () => createMemoryBus(hub);
    },
  ],
  [
    'Redis',
    () => {
      const namespace = `test-reports-${randomBytes(4).toString('hex')}`;
      return () => createRedisBus({ url: process.env.REDIS_URL! }, { namespace });
    },
  ],
])('process reports over %s', (_name, busFactory) => {
  it('adds up what gateways and settling processes report, and forgets the silent ones', async () => {
    const factory = busFactory();
    const open = () => {
      const bus = factory();
      buses.push(bus);
      return bus;
    };
    const [boardBus, gatewayBus, workerBus] = [open(), open(), open()];
    const clock = manualClock(Date.now());
    const board = await processBoard(boardBus, { now: clock.now });
    // Two gateway processes and one settling worker, each on its own bus connection as
    // separate processes would be. The reports go every 20 ms here (2 s in production).
    let sockets = 3;
    const reporters = [
      startProcessReporter({
        bus: gatewayBus,
        id: 'gw-b:1',
        role: 'gateway',
        gateway: () => ({ sockets, ticksPerSecond: 10 }),
        everyMs: 20,
      }),
      startProcessReporter({
        bus: open(),
        id: 'gw-a:2',
        role: 'gateway',
        gateway: () => ({ sockets: 4, ticksPerSecond: 9.5 }),
        everyMs: 20,
      }),
      startProcessReporter({
        bus: workerBus,
        id: 'worker:3',
        role: 'worker',
        settlement: () => ({ settledLastMinute: 40, lagP50Ms: 120, lagP99Ms: 480 }),
        everyMs: 20,
      }),
      startProcessReporter({
        bus: workerBus,
        id: 'api:4',
        role: 'api',
        settlement: () => ({ settledLastMinute: 2, lagP50Ms: 300, lagP99Ms: 310 }),
        everyMs: 20,
      }),
    ];
    await eventually(() => board.figures().processes === 4, 5000, 'four processes heard');
    expect(board.figures()).toEqual({
      gateways: [
        { id: 'gw-a:2', sockets: 4, ticksPerSecond: 9.5 },
        { id: 'gw-b:1', sockets: 3, ticksPerSecond: 10 },
      ],
      sockets: 7,
      ticksPerSecond: 10,
      // Counts add up; the lags shown are the worst of the settling processes.
      settlement: { settledLastMinute: 42, lagP50Ms: 300, lagP99Ms: 480 },
      processes: 4,
    });
    sockets = 5;
    await eventually(() => board.figures().sockets === 9, 5000, 'the newer report');
    for (const r of reporters) r.stop();
    // Ten seconds of silence and nobody is counted any more.
    clock.advance(10_001);
    expect(board.figures()).toEqual({
      gateways: [],
      sockets: 0,
      ticksPerSecond: null,
      settlement: null,
      processes: 0,
    });
    await board.close();
  });
});
