import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BusMessage } from '@shared/bus';
import type { Tick } from '@shared/market/model';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import type { Bus } from '@infra/bus';
import type { Db } from '@infra/db';
import { eventually } from '@tests/support/wait';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import {
  SATURDAY_NOON,
  WEDNESDAY_AFTERNOON,
  clockFrom,
  feedTestOptions,
  seedTape,
} from '@tests/support/market';
import { defaultCatalogue } from './catalogue';
import { startFeed, type FeedOptions } from './feed';
import { firstBackfillStart } from './feed-model';
import { advanceWatermark, pruneTicks, tapeWatermark } from './tape.repo';

describe.each(dbDrivers())('market simulator on %s', (kind) => {
  let t: TestDb;
  let bus: Bus;
  let heard: BusMessage[];
  beforeEach(async () => {
    t = await openTestDb(kind);
    bus = createMemoryBus(createMemoryHub());
    heard = [];
    for (const type of ['tick', 'market', 'product'] as const)
      await bus.subscribe(type, (m) => heard.push(m));
  });
  afterEach(async () => {
    await bus.close();
    await t.drop();
  });

  const options = (o: Partial<FeedOptions>) => feedTestOptions(t.db, bus, o);
  const ticksOf = (id: string) =>
    heard.flatMap((m) => (m.type === 'tick' && m.tick.id === id ? [m.tick] : []));

  it('publishes ticks of every open product, consecutive in seq, and records exactly those on the tape', async () => {
    const gaps: { productId: string; gapMs: number }[] = [];
    const feed = await startFeed(
      options({
        now: clockFrom(WEDNESDAY_AFTERNOON),
        onGap: (productId, gapMs) => gaps.push({ productId, gapMs }),
      }),
    );
    await eventually(
      () => defaultCatalogue.every((p) => ticksOf(p.id).length >= 5),
      5000,
      'ticks of all products',
    );
    await feed.stop();
    // The feed's rhythm: each tick's distance from the one before it, the largest in the state.
    const btc = ticksOf('BTCUSDT');
    const between = btc.slice(1).map((tk, i) => tk.ts - btc[i]!.ts);
    expect(gaps.filter((g) => g.productId === 'BTCUSDT').map((g) => g.gapMs)).toEqual(between);
    expect(feed.state().products.find((p) => p.id === 'BTCUSDT')!.feedGapMaxMs).toBe(
      Math.max(...between),
    );
    for (const spec of defaultCatalogue) {
      const ticks = ticksOf(spec.id);
      expect(ticks.map((tk) => tk.seq)).toEqual(ticks.map((_, i) => i + 1));
      for (const tk of ticks)
        expect(tk.price).toMatch(new RegExp(`^\\d+\\.\\d{${spec.precision}}$`));
      const { rows } = await t.db.query<{ seq: number; ts: number }>(
        'SELECT seq, ts FROM ticks WHERE product_id = $1 ORDER BY seq',
        [spec.id],
      );
      expect(rows).toEqual(ticks.map((tk) => ({ seq: tk.seq, ts: tk.ts })));
    }
    expect(heard.some((m) => m.type === 'market' && m.market.products.length === 12)).toBe(true);
  });

  it('keeps closed markets silent and says when they open', async () => {
    const feed = await startFeed(options({ now: clockFrom(SATURDAY_NOON) }));
    await eventually(() => ticksOf('BTCUSDT').length >= 5, 5000, 'crypto ticks');
    const state = feed.state();
    await feed.stop();
    for (const id of ['EURUSD', 'XAUUSD', 'WTIUSD', 'US500']) expect(ticksOf(id)).toEqual([]);
    const eur = state.products.find((p) => p.id === 'EURUSD')!;
    expect(eur.status).toBe('closed');
    expect(eur.opensAt).toBe(Date.UTC(2026, 10, 22, 22, 0, 0));
    expect(state.products.find((p) => p.id === 'US500')!.opensAt).toBe(
      Date.UTC(2026, 10, 23, 13, 30, 0),
    );
  });

  it('backfills the configured history with full 24h stats, deterministically for a seed', async () => {
    const state = await seedTape(t.db, { at: WEDNESDAY_AFTERNOON, hours: 1, seed: 5 });
    const other = await openTestDb(kind);
    try {
      const again = await seedTape(other.db, { at: WEDNESDAY_AFTERNOON, hours: 1, seed: 5 });
      expect(again).toEqual(state);
      const dump = (db: Db) =>
        db
          .query('SELECT product_id, t, o, h, l, c, v, n FROM candles ORDER BY product_id, t')
          .then((r) => r.rows);
      expect(await dump(other.db)).toEqual(await dump(t.db));
    } finally {
      await other.drop();
    }
    const btc = state.products.find((p) => p.id === 'BTCUSDT')!;
    const { rows } = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM candles WHERE product_id = 'BTCUSDT'",
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(59);
    expect(Number(btc.stats.volume)).toBeGreaterThan(0);
    expect(btc.last!.price).toBe(btc.stats.last);
  });

  it('resumes after a restart: seq and price continue from the tape', async () => {
    const before = await seedTape(t.db, { at: WEDNESDAY_AFTERNOON, hours: 1 });
    // Ten minutes later: the gap is backfilled, continuing the sequence.
    const later = await seedTape(t.db, { at: WEDNESDAY_AFTERNOON + 600_000, hours: 1 });
    for (const p of later.products) {
      const prev = before.products.find((x) => x.id === p.id)!;
      expect(p.last!.seq).toBeGreaterThan(prev.last!.seq);
      const { rows } = await t.db.query<{ n: number; lo: number; hi: number }>(
        'SELECT count(*)::int AS n, min(seq)::int AS lo, max(seq)::int AS hi FROM ticks WHERE product_id = $1 AND seq > $2',
        [p.id, prev.last!.seq],
      );
      expect(rows[0]).toEqual({
        n: p.last!.seq - prev.last!.seq,
        lo: prev.last!.seq + 1,
        hi: p.last!.seq,
      });
    }
  });

  it('keeps a watermark: every tick at or below it is on the tape, and none below it comes later', async () => {
    const feed = await startFeed(
      options({ now: clockFrom(WEDNESDAY_AFTERNOON), flushMs: 50, ticksPerSecond: 50 }),
    );
    await vi.waitFor(
      async () => {
        if ((await tapeWatermark(t.db)) <= WEDNESDAY_AFTERNOON + 300)
          throw new Error('the watermark has not passed 300 ms of live ticks');
      },
      { timeout: 5000, interval: 20 },
    );
    const mark = await tapeWatermark(t.db);
    const count = async () =>
      (
        await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ticks WHERE ts <= $1', [
          mark,
        ])
      ).rows[0]!.n;
    const atMark = await count();
    await feed.stop();
    // Every tick published at or below the mark was on the tape when the mark was read.
    const published = heard.filter((m) => m.type === 'tick' && m.tick.ts <= mark).length;
    expect(published).toBeGreaterThan(0);
    expect(atMark).toBe(published);
    expect(await count()).toBe(atMark);
    const final = await tapeWatermark(t.db);
    expect(final).toBeGreaterThanOrEqual(mark);

    // A restart ten minutes later backfills the gap, but not under the watermark: pretend the
    // tape was known complete five minutes into the gap.
    const lastTs = Number(
      (await t.db.query<{ ts: string }>('SELECT max(ts)::text AS ts FROM ticks')).rows[0]!.ts,
    );
    await advanceWatermark(t.db, lastTs + 300_000);
    const again = await startFeed(
      options({ now: clockFrom(WEDNESDAY_AFTERNOON + 600_000), backfillHours: 1 }),
    );
    await again.stop();
    const { rows } = await t.db.query<{ under: number; over: number }>(
      `SELECT count(*) FILTER (WHERE ts > $1 AND ts <= $2)::int AS under,
              count(*) FILTER (WHERE ts > $2)::int AS over FROM ticks`,
      [lastTs, lastTs + 300_000],
    );
    expect(rows[0]).toEqual({ under: 0, over: expect.any(Number) as number });
    expect(rows[0]!.over).toBeGreaterThan(0);
  });

  it('gives closed markets their last price on a first start at the weekend', async () => {
    const feed = await startFeed(options({ now: clockFrom(SATURDAY_NOON), backfillHours: 1 }));
    const state = feed.state();
    await feed.stop();
    for (const id of ['US500', 'EURUSD', 'XAUUSD']) {
      const product = state.products.find((p) => p.id === id)!;
      expect(product.status).toBe('closed');
      expect(product.last?.price).toMatch(/^\d+\.\d+$/);
      // From the last session (Friday), not from the hour before Saturday noon.
      expect(product.last!.ts).toBeLessThan(SATURDAY_NOON - 3_600_000);
    }
    const spec = (id: string) => defaultCatalogue.find((p) => p.id === id)!;
    // Crypto trades around the clock: one hour back is enough.
    expect(firstBackfillStart(spec('BTCUSDT'), SATURDAY_NOON, 1)).toBe(SATURDAY_NOON - 3_600_000);
    expect(firstBackfillStart(spec('US500'), WEDNESDAY_AFTERNOON, 1)).toBe(
      WEDNESDAY_AFTERNOON - 3_600_000,
    );
    expect(firstBackfillStart(spec('US500'), SATURDAY_NOON, 0)).toBe(SATURDAY_NOON);
  });

  it('draws months of hourly history before a first start, continuous with the backfill and the same for the same seed', async () => {
    const catalogue = defaultCatalogue.filter((p) => ['BTCUSDT', 'EURUSD'].includes(p.id));
    const first = (db: Db) =>
      startFeed({
        ...options({
          now: clockFrom(WEDNESDAY_AFTERNOON),
          backfillHours: 1,
          historyDays: 30,
          ticksPerSecond: 2,
        }),
        db,
        catalogue,
      });
    const hourly = async (db: Db, id: string) =>
      (
        await db.query<{ t: number; o: number; h: number; l: number; c: number; v: number }>(
          'SELECT t, o, h, l, c, v FROM candles WHERE product_id = $1 AND t < $2 ORDER BY t',
          [id, WEDNESDAY_AFTERNOON - 3_600_000],
        )
      ).rows;
    await (await first(t.db)).stop();
    const btc = await hourly(t.db, 'BTCUSDT');
    // Around the clock: an hourly candle for each of the 30 days' hours.
    expect(btc.length).toBeGreaterThanOrEqual(30 * 24 - 1);
    for (const c of btc) {
      expect(c.t % 3_600_000).toBe(0);
      expect(c.l).toBeLessThanOrEqual(Math.min(c.o, c.c));
      expect(c.h).toBeGreaterThanOrEqual(Math.max(c.o, c.c));
      expect(c.v).toBeGreaterThan(0);
    }
    // A weekday market has none while it is closed (Saturdays, UTC).
    const eur = await hourly(t.db, 'EURUSD');
    expect(eur.length).toBeGreaterThan(15 * 24);
    expect(eur.filter((c) => new Date(c.t).getUTCDay() === 6)).toEqual([]);
    // The backfill goes on from where the history ended: its first minute opens near the last close.
    const { rows } = await t.db.query<{ o: number }>(
      'SELECT o FROM candles WHERE product_id = $1 AND t >= $2 ORDER BY t LIMIT 1',
      ['BTCUSDT', WEDNESDAY_AFTERNOON - 3_600_000],
    );
    expect(Math.abs(rows[0]!.o / btc.at(-1)!.c - 1)).toBeLessThan(0.01);
    // Seeded: another first start with the same seed draws the very same history.
    const other = await openTestDb(kind);
    try {
      await (await first(other.db)).stop();
      expect(await hourly(other.db, 'BTCUSDT')).toEqual(btc);
    } finally {
      await other.drop();
    }
  });

  it('stops a product under maintenance and announces it, then resumes', async () => {
    const feed = await startFeed(options({ now: clockFrom(WEDNESDAY_AFTERNOON), flushMs: 50 }));
    await eventually(() => ticksOf('ETHUSDT').length > 0, 5000, 'first ticks');
    const opensAt = WEDNESDAY_AFTERNOON + 3_600_000;
    await bus.publish({ type: 'maintenance', id: 'ETHUSDT', on: true, opensAt });
    await eventually(
      () => heard.some((m) => m.type === 'product' && m.product.id === 'ETHUSDT'),
      3000,
      'product event',
    );
    expect(heard.find((m) => m.type === 'product')).toEqual({
      type: 'product',
      product: { id: 'ETHUSDT', status: 'maintenance', opensAt },
    });
    // Ticks made before the change are published once written, within a flush (50 ms): 200 ms
    // lets them land. None is made after it: 300 ms is six flushes and six ticks of the rate.
    await new Promise((r) => setTimeout(r, 200));
    const count = ticksOf('ETHUSDT').length;
    await new Promise((r) => setTimeout(r, 300));
    expect(ticksOf('ETHUSDT').length).toBe(count);
    await bus.publish({ type: 'maintenance', id: 'ETHUSDT', on: false });
    await eventually(() => ticksOf('ETHUSDT').length > count, 3000, 'ticks again');
    await feed.stop();
  });

  it('publishes nothing the database has not recorded, then everything in order once it is back', async () => {
    let failing = true;
    let refused = 0;
    const flaky: Db = {
      ...t.db,
      transaction: (fn, o) => {
        if (!failing) return t.db.transaction(fn, o);
        refused++;
        return Promise.reject(new Error('db down'));
      },
    };
    const feed = await startFeed(
      options({ db: flaky, now: clockFrom(WEDNESDAY_AFTERNOON), flushMs: 50 }),
    );
    // Ten refused writes (half a second, 20 ticks a second): ticks were made meanwhile, and none
    // of them reached the bus.
    await eventually(() => refused >= 10, 5000, 'refused tape writes');
    expect(ticksOf('BTCUSDT')).toEqual([]);
    failing = false;
    await eventually(() => ticksOf('BTCUSDT').length >= 5, 5000, 'ticks once the tape is written');
    await feed.stop();
    const published: Tick[] = ticksOf('BTCUSDT');
    const { rows } = await t.db.query<{ seq: number }>(
      "SELECT seq FROM ticks WHERE product_id = 'BTCUSDT' ORDER BY seq",
    );
    expect(rows.map((r) => r.seq)).toEqual(published.map((tk) => tk.seq));
  });

  it('prunes raw ticks past the retention, keeping candles', async () => {
    await seedTape(t.db, { at: WEDNESDAY_AFTERNOON, hours: 1 });
    const candlesBefore = (await t.db.query('SELECT 1 FROM candles')).rowCount;
    const gone = await pruneTicks(t.db, WEDNESDAY_AFTERNOON - 10 * 60_000);
    expect(gone).toBeGreaterThan(0);
    const { rows } = await t.db.query<{ oldest: number }>('SELECT min(ts) AS oldest FROM ticks');
    expect(rows[0]!.oldest).toBeGreaterThanOrEqual(WEDNESDAY_AFTERNOON - 10 * 60_000);
    expect((await t.db.query('SELECT 1 FROM candles')).rowCount).toBe(candlesBefore);
  });
});
