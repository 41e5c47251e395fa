import { Redis } from 'ioredis';
import { Emitter } from '@socket.io/redis-emitter';
import type { ServerToClientEvents } from '@shared/socket';
import { createRedisBus } from '@infra/bus/redis';
import { toMarketSnapshot } from '@server/gateway/snapshot';
import type { Bus } from '@infra/bus';
import { send, type ToChild } from './ipc';
import { BENCH_PRODUCT, createTickStream, preciseNow } from './stream';

/**
 * The one tick publisher of a benchmark run (a child process of its own, as a simulator is).
 * On `publish` it drives the bench product at `ticksPerSec` plus one market state per second:
 * - mode `emitter`: through @socket.io/redis-emitter into the rooms `ticks:<id>` and `market`
 *   (the documented way to emit from outside a Socket.IO server; the market snapshot is the
 *   gateway's own conversion, so clients get the same bytes);
 * - mode `bus`: on the app's Redis bus, exactly as the simulator publishes.
 * `halt` stops it and reports what was sent.
 */

interface Target {
  tick(tick: ReturnType<ReturnType<typeof createTickStream>['tick']>): void;
  market(state: ReturnType<ReturnType<typeof createTickStream>['market']>): void;
  close(): Promise<void>;
}

function emitterTarget(redisUrl: string, key: string): Target {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const emitter = new Emitter<ServerToClientEvents>(redis, { key });
  const ticks = emitter.to(`ticks:${BENCH_PRODUCT}`);
  const market = emitter.to('market');
  return {
    tick: (t) => ticks.emit('tick', t),
    market: (m) => market.emit('market', toMarketSnapshot(m)),
    close: async () => {
      await redis.quit();
    },
  };
}

function busTarget(redisUrl: string, namespace: string): Target {
  const bus: Bus = createRedisBus({ url: redisUrl }, { namespace });
  return {
    tick: (tick) => void bus.publish({ type: 'tick', tick }),
    market: (market) => void bus.publish({ type: 'market', market }),
    close: () => bus.close(),
  };
}

const stream = createTickStream();
let running: { target: Target; stop: () => void; ticks: number; snapshots: number } | null = null;

function start(m: Extract<ToChild, { type: 'publish' }>): void {
  const target =
    m.mode === 'emitter' ? emitterTarget(m.redisUrl, m.key) : busTarget(m.redisUrl, m.key);
  const period = 1000 / m.ticksPerSec;
  const run = { target, stop: () => {}, ticks: 0, snapshots: 0 };
  let next = performance.now() + period;
  let tickTimer: NodeJS.Timeout;
  // Self-correcting schedule: a late tick does not shift the ones after it; a tick more than one
  // period late is not made up in a burst.
  const tick = () => {
    target.tick(stream.tick(preciseNow()));
    run.ticks++;
    const now = performance.now();
    next = Math.max(next + period, now);
    tickTimer = setTimeout(tick, next - now);
  };
  tickTimer = setTimeout(tick, period);
  // The market state once a second, half a tick period away from the ticks (as the sim's own
  // second timer runs beside its jittered ticks).
  let marketTimer: NodeJS.Timeout | undefined;
  const firstMarket = setTimeout(() => {
    const market = () => {
      target.market(stream.market(preciseNow()));
      run.snapshots++;
    };
    market();
    marketTimer = setInterval(market, 1000);
  }, period / 2);
  run.stop = () => {
    clearTimeout(tickTimer);
    clearTimeout(firstMarket);
    clearInterval(marketTimer);
  };
  running = run;
}

process.on('message', (raw) => {
  const m = raw as ToChild;
  if (m.type === 'publish') {
    if (running) return send({ type: 'error', id: m.id, message: 'already publishing' });
    start(m);
    send({ type: 'publishing', id: m.id });
  } else if (m.type === 'count') {
    send({
      type: 'counted',
      id: m.id,
      ticks: running?.ticks ?? 0,
      snapshots: running?.snapshots ?? 0,
    });
  } else if (m.type === 'halt') {
    const run = running;
    running = null;
    run?.stop();
    void (run?.target.close() ?? Promise.resolve()).then(() =>
      send({ type: 'halted', id: m.id, ticks: run?.ticks ?? 0, snapshots: run?.snapshots ?? 0 }),
    );
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
