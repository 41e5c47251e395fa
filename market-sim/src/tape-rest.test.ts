import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BusMessage } from '@shared/bus';
import type { Tick } from '@shared/market/model';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import type { Bus } from '@infra/bus';
import { eventually } from '@tests/support/wait';
import { openTestDb, type TestDb } from '@tests/support/db';
import { WEDNESDAY_AFTERNOON, clockFrom, feedTestOptions } from '@tests/support/market';
import { startFeed } from './feed';
import { TAPE_WANTED_HOLD_MS } from './feed-writer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The tape's rest cadence (DECISIONS 63): a tick is published once written, so while nobody wants
 * the tape current (no `tape-wanted` or `orders` message for TAPE_WANTED_HOLD_MS) the writer
 * writes, and so publishes, at `restFlushMs`; a message makes it write at once and at `flushMs`
 * again. The writer's behaviour, not the database's: PGlite only.
 */
describe('the tape at rest', () => {
  let t: TestDb;
  let bus: Bus;
  let ticks: number;
  /** Every tick published, in order. */
  let heard: Tick[];
  beforeEach(async () => {
    t = await openTestDb('pglite');
    bus = createMemoryBus(createMemoryHub());
    ticks = 0;
    heard = [];
    await bus.subscribe('tick', ({ tick }) => {
      ticks++;
      heard.push(tick);
    });
  });
  afterEach(async () => {
    await bus.close();
    await t.drop();
  });

  const options = () =>
    feedTestOptions(t.db, bus, {
      now: clockFrom(WEDNESDAY_AFTERNOON),
      flushMs: 20,
      // A rest write a minute away: within this test, any write while resting is a wanted one.
      restFlushMs: 60_000,
    });

  /** Waits out the hold, then checks that nothing is published for a second: it rests. */
  const rests = async () => {
    await sleep(TAPE_WANTED_HOLD_MS + 200);
    const before = ticks;
    // At full cadence a second is 50 writes of about 8 products' ticks at 20 a second each.
    await sleep(1000);
    expect(ticks).toBe(before);
    return before;
  };

  it.each<[string, BusMessage]>([
    ['a gateway with sockets', { type: 'tape-wanted', by: 'gateway' }],
    ['a placement', { type: 'orders', placed: 0 }],
  ])('rests while nobody wants the tape, and writes at once when %s does', async (_, wanted) => {
    const feed = await startFeed(options());
    try {
      // A feed starts wanted: its ticks come at once.
      await eventually(() => ticks >= 10, 5000, 'ticks at the full cadence');
      const before = await rests();
      await bus.publish(wanted);
      // The ticks buffered while resting, at once (a rest write is a minute away)…
      await eventually(() => ticks > before, 5000, 'the buffered ticks');
      // …and then the full cadence for the hold: more writes, well before a rest write.
      const after = ticks;
      await eventually(() => ticks > after, 2000, 'ticks at the full cadence again');
      // Asked no more, it rests again.
      await rests();
    } finally {
      await feed.stop();
    }
  });

  /** The largest time between two ticks of `id` published with times in [from, to]. */
  const largestGap = (id: string, from: number, to: number) => {
    const times = heard.filter((k) => k.id === id && k.ts >= from && k.ts <= to).map((k) => k.ts);
    return Math.max(...times.slice(1).map((ts, i) => ts - times[i]!));
  };

  /** Runs `body` on a feed that has rested for a second since `from`; stops the feed after. */
  const afterARest = async (body: (clock: () => number, from: number) => Promise<void>) => {
    const clock = clockFrom(WEDNESDAY_AFTERNOON);
    const feed = await startFeed({ ...options(), now: clock });
    try {
      await eventually(() => ticks >= 10, 5000, 'ticks at the full cadence');
      const from = clock();
      await rests();
      await body(clock, from);
    } finally {
      await feed.stop();
    }
  };

  it('makes a resting second’s ticks at their own times, not at the write that takes them', () =>
    afterARest(async (clock, from) => {
      const to = clock();
      await bus.publish({ type: 'tape-wanted', by: 'gateway' });
      await eventually(() => heard.some((k) => k.ts > to), 5000, 'the resting ticks, written');
      // 20 a second, each 0.5–1.5 mean intervals (25–75 ms) after the one before: made at the
      // write, they would all carry its time, a gap of the whole rest before them.
      const rested = heard.filter((k) => k.id === 'BTCUSDT' && k.ts >= from && k.ts <= to);
      expect(rested.length).toBeGreaterThan(((to - from) / 75) * 0.9);
      expect(largestGap('BTCUSDT', from, to)).toBeLessThanOrEqual(76);
      expect(new Set(rested.map((k) => k.seq)).size).toBe(rested.length);
    }));

  it('records a resting product’s ticks up to the moment it stops, not up to its last write', () =>
    afterARest(async (clock, from) => {
      const stoppedAt = clock();
      await bus.publish({ type: 'maintenance', id: 'BTCUSDT', on: true });
      await bus.publish({ type: 'tape-wanted', by: 'gateway' });
      await eventually(() => heard.some((k) => k.ts > stoppedAt), 5000, 'the resting ticks');
      // The last write was over a second before the maintenance began; the ticks due since were
      // made as it began, so the tape has no hole before it.
      const btc = heard.filter((k) => k.id === 'BTCUSDT');
      expect(btc.at(-1)!.ts).toBeGreaterThanOrEqual(stoppedAt - 76);
      expect(largestGap('BTCUSDT', from, stoppedAt)).toBeLessThanOrEqual(76);
    }));
});
