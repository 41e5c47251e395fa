import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeCandles, type CandleUnits } from '@shared/aggregate';
import type { BusMessage } from '@shared/bus';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import type { Bus } from '@infra/bus';
import type { Db, Queryable } from '@infra/db';
import { eventually } from '@tests/support/wait';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { WEDNESDAY_AFTERNOON, clockFrom, madeUpCandles } from '@tests/support/market';
import { defaultCatalogue } from './catalogue';
import { startFeed, type FeedOptions } from './feed';
import { FencedOut, holdLease, type Lease } from './lease';
import { createTapeWriter } from './tape-writer';
import { HOUR_MS, rollUpHours, rollUpHoursBefore, upsertCandles } from './tape.repo';

const MINUTE = 60_000;
/** 11:00 UTC on a Wednesday: crypto and forex trade. */
const ELEVEN = WEDNESDAY_AFTERNOON - 4 * HOUR_MS;

type Row = Omit<CandleUnits, 'a'> & { a: string };
const units = (r: Row): CandleUnits => ({ ...r, a: BigInt(r.a) });

/** The rows of `candles` of a product, oldest first. */
async function minutesOf(db: Queryable, productId: string): Promise<CandleUnits[]> {
  const { rows } = await db.query<Row>(
    'SELECT t, o, h, l, c, v, a::text AS a, n FROM candles WHERE product_id = $1 ORDER BY t',
    [productId],
  );
  return rows.map(units);
}

/** The stored hours of a product (candles_1h), oldest first. */
async function hoursOf(db: Queryable, productId: string): Promise<CandleUnits[]> {
  const { rows } = await db.query<Row>(
    'SELECT t, o, h, l, c, v, a::text AS a, n FROM candles_1h WHERE product_id = $1 ORDER BY t',
    [productId],
  );
  return rows.map(units);
}

/** What the hours of a product are: the shared aggregation of its rows in `candles`. */
async function rolledUp(db: Queryable, productId: string, before = Infinity) {
  return mergeCandles(await minutesOf(db, productId), HOUR_MS).filter((c) => c.t < before);
}

const minutesFrom = (start: number, count: number) =>
  Array.from({ length: count }, (_, i) => start + i * MINUTE);

/**
 * The hourly roll-up (candles_1h) as the simulator keeps it: its tape writer rolls up an hour
 * once it is over, in the write of its last minutes, and a feed's start rolls up the hours that
 * are over before it. Every stored hour equals the shared aggregation of the hour's 1-minute
 * rows, whatever order the writes and restarts came in.
 */
describe.each(dbDrivers())('hourly candles kept by the simulator on %s', (kind) => {
  let t: TestDb;
  let bus: Bus;
  let heard: BusMessage[];
  beforeEach(async () => {
    t = await openTestDb(kind);
    bus = createMemoryBus(createMemoryHub());
    heard = [];
    await bus.subscribe('tick', (m) => heard.push(m));
  });
  afterEach(async () => {
    await bus.close();
    await t.drop();
  });

  const ticksOf = (id: string) =>
    heard.flatMap((m) => (m.type === 'tick' && m.tick.id === id ? [m.tick] : []));
  const options = (o: Partial<FeedOptions>): FeedOptions => ({
    db: t.db,
    bus,
    catalogue: defaultCatalogue,
    seed: 11,
    randomness: { kind: 'seeded' },
    ticksPerSecond: 2,
    backfillHours: 0,
    retentionHours: 48,
    ...o,
  });

  it('the writer rolls an hour up once it is over, in the transaction of its last minutes, though its market closed mid-hour', async () => {
    const ten = ELEVEN - HOUR_MS;
    let failRollUp = false;
    // Refuses the roll-up statement while failRollUp: the write it is part of must fail whole.
    const db: Db = {
      ...t.db,
      transaction: (fn, o) =>
        t.db.transaction(
          (tx) =>
            fn({
              ...tx,
              query: (sql: string, ...rest: unknown[]) =>
                failRollUp && sql.includes('INSERT INTO candles_1h')
                  ? Promise.reject(new Error('roll-up refused'))
                  : (tx.query as (...a: unknown[]) => Promise<never>)(sql, ...rest),
            }),
          o,
        ),
    };
    let through = ten + 30 * MINUTE;
    const writer = createTapeWriter(db, { flushMs: 3_600_000, through: () => through });
    // HOURX trades the whole hour; HOURY's market closes at 10:37 and says nothing more.
    const x = madeUpCandles('HOURX', minutesFrom(ten, 60), 1);
    const y = madeUpCandles('HOURY', minutesFrom(ten, 38), 2);
    for (const c of [...x.slice(0, 31), ...y]) writer.setCandle(c);
    await writer.flush();
    expect(await hoursOf(t.db, 'HOURX')).toEqual([]);
    for (const c of x.slice(31, 59)) writer.setCandle(c);
    // One millisecond before the hour's end, it is not over: a tick of 10:59:59.999 may come.
    through = ELEVEN - 2;
    await writer.flush();
    expect(await hoursOf(t.db, 'HOURX')).toEqual([]);
    expect(await hoursOf(t.db, 'HOURY')).toEqual([]);

    // The hour's last minute and its end, in one write whose roll-up fails: neither is written…
    writer.setCandle(x[59]!);
    through = ELEVEN - 1;
    failRollUp = true;
    await writer.flush();
    expect((await minutesOf(t.db, 'HOURX')).length).toBe(59);
    expect(await hoursOf(t.db, 'HOURX')).toEqual([]);
    // …and both are, once the write goes through.
    failRollUp = false;
    await writer.flush();
    expect((await minutesOf(t.db, 'HOURX')).length).toBe(60);
    expect(await hoursOf(t.db, 'HOURX')).toEqual(await rolledUp(t.db, 'HOURX'));
    expect(await hoursOf(t.db, 'HOURY')).toEqual(await rolledUp(t.db, 'HOURY'));
    expect((await hoursOf(t.db, 'HOURY'))[0]).toMatchObject({ t: ten, c: y[37]!.c });
    await writer.stop();
  });

  it('a writer that lost the lease writes no hour', async () => {
    const writer = createTapeWriter(t.db, {
      flushMs: 3_600_000,
      through: () => ELEVEN,
      fence: () => Promise.reject(new FencedOut(1)),
    });
    await upsertCandles(t.db, madeUpCandles('HOURX', minutesFrom(ELEVEN - HOUR_MS, 60)));
    writer.rollUpWhenOver({ productId: 'HOURX', t: ELEVEN - HOUR_MS });
    await writer.stop();
    expect(await hoursOf(t.db, 'HOURX')).toEqual([]);
  });

  it('rolls an hour up again from all its minutes, and a start rolls up the hours missing since the newest stored one', async () => {
    const eight = ELEVEN - 3 * HOUR_MS;
    const minutes = madeUpCandles('HOURX', minutesFrom(eight, 3 * 60 + 20), 3);
    // Half of 08:00 rolled up (as a writer racing another might), then the rest: the second
    // roll-up replaces the first, and a third changes nothing.
    await upsertCandles(t.db, minutes.slice(0, 30));
    await rollUpHours(t.db, [{ productId: 'HOURX', t: eight }]);
    await upsertCandles(t.db, minutes.slice(30, 60));
    await rollUpHours(t.db, [{ productId: 'HOURX', t: eight }]);
    await rollUpHours(t.db, [{ productId: 'HOURX', t: eight }]);
    expect(await hoursOf(t.db, 'HOURX')).toEqual(await rolledUp(t.db, 'HOURX'));
    // 09:00 and 10:00 written, 08:00's last minute changed after its roll-up (a stored hour can
    // be older than its last minute only if a migration rolled it up while an older simulator
    // still wrote), and 11:00 begun. A start at 11:20 rolls up 08:00 again, 09:00 and 10:00,
    // not 11:00; and every hour of a product with none stored yet.
    await upsertCandles(t.db, [
      ...minutes.slice(59, 60).map((c) => ({ ...c, c: c.c + 7, h: c.h + 7 })),
      ...minutes.slice(60),
    ]);
    const other = madeUpCandles('HOURY', minutesFrom(eight - 50 * HOUR_MS, 52 * 60), 4);
    await upsertCandles(t.db, other);
    const written = await rollUpHoursBefore(t.db, ['HOURX', 'HOURY'], ELEVEN);
    expect(written).toBe(3 + 52);
    expect(await hoursOf(t.db, 'HOURX')).toEqual(await rolledUp(t.db, 'HOURX', ELEVEN));
    expect(await hoursOf(t.db, 'HOURY')).toEqual(await rolledUp(t.db, 'HOURY', ELEVEN));
  });

  it('leaves an hour right across a restart mid-hour, and rolls up the hour a stopped feed left', async () => {
    // A first start at 10:40 backfills an hour (09:40-10:40): 09:00 is over and rolled up.
    const first = await startFeed(
      options({ now: clockFrom(ELEVEN - 20 * MINUTE), backfillHours: 1 }),
    );
    await eventually(() => ticksOf('BTCUSDT').length >= 5, 5000, 'live ticks');
    await first.stop();
    const nine = ELEVEN - 2 * HOUR_MS;
    for (const id of ['BTCUSDT', 'EURUSD'])
      expect((await hoursOf(t.db, id)).map((c) => c.t)).toEqual([nine]);

    // It restarts at 10:59:57 (no backfill: the hour keeps the first start's minutes and gets
    // the second's); ETHUSDT goes under maintenance at once (its market closes mid-hour: no
    // minute of it comes through the writer). When 11:00 is over, the hour 10:00 is rolled up
    // whole, for every product.
    const clock = clockFrom(ELEVEN - 3_000);
    const second = await startFeed(options({ now: clock }));
    await bus.publish({ type: 'maintenance', id: 'ETHUSDT', on: true });
    await eventually(() => clock() > ELEVEN + 500, 10_000, 'the hour to end');
    const ten = ELEVEN - HOUR_MS;
    await eventually(
      () => ticksOf('BTCUSDT').some((tk) => tk.ts > ELEVEN + 300),
      5000,
      'ticks after the hour',
    );
    await second.stop();
    for (const spec of defaultCatalogue) {
      const stored = await hoursOf(t.db, spec.id);
      expect(stored, spec.id).toEqual(await rolledUp(t.db, spec.id, ELEVEN));
      if (spec.calendar !== 'index') expect(stored.at(-1)!.t, spec.id).toBe(ten);
    }
    expect((await minutesOf(t.db, 'ETHUSDT')).at(-1)!.t).toBeLessThan(ELEVEN);
    expect((await minutesOf(t.db, 'BTCUSDT')).at(-1)!.t).toBe(ELEVEN);

    // Stopped at 11:00:0x, started again at 12:30 (no backfill): the start rolls up 11:00.
    const third = await startFeed(options({ now: clockFrom(ELEVEN + 90 * MINUTE) }));
    await third.stop();
    const btc = await hoursOf(t.db, 'BTCUSDT');
    expect(btc.at(-1)!.t).toBe(ELEVEN);
    expect(btc).toEqual(await rolledUp(t.db, 'BTCUSDT'));
  });

  it('leaves the hour right when a standby takes over from a leader that stalled mid-hour', async () => {
    // History up to 10:40, then two simulators from 10:59:56: a leads, stalls, b takes over.
    const first = await startFeed(
      options({ now: clockFrom(ELEVEN - 20 * MINUTE), backfillHours: 1 }),
    );
    await first.stop();
    const clock = clockFrom(ELEVEN - 4_000);
    const leases: Lease[] = [];
    // The leader's renewals stop reaching the database while `stalled` (its tape writes do not).
    let stalled = false;
    const stalling: Db = {
      ...t.db,
      query: (sql: string, ...rest: unknown[]) =>
        stalled && sql.includes('sim_lease')
          ? Promise.reject(new Error('stalled'))
          : (t.db.query as (...a: unknown[]) => Promise<never>)(sql, ...rest),
    };
    const contender = (holder: string, db: Db) => {
      const lease = holdLease({ db, ttlMs: 1000, pollMs: 100, holder }, (l) =>
        startFeed(options({ now: clock, lease: l })),
      );
      leases.push(lease);
      return lease;
    };
    try {
      const a = contender('a', stalling);
      await a.whenLeading();
      await eventually(() => ticksOf('BTCUSDT').length >= 5, 5000, 'the leader ticks');
      stalled = true;
      const b = contender('b', t.db);
      await b.whenLeading();
      expect(a.leading()).toBe(false);
      await eventually(() => clock() > ELEVEN + 500, 10_000, 'the hour to end');
      await eventually(
        () => ticksOf('BTCUSDT').some((tk) => tk.ts > ELEVEN + 300),
        5000,
        'ticks after the hour',
      );
    } finally {
      await Promise.all(leases.map((l) => l.stop()));
    }
    for (const spec of defaultCatalogue.filter((s) => s.calendar !== 'index')) {
      const stored = await hoursOf(t.db, spec.id);
      expect(stored, spec.id).toEqual(await rolledUp(t.db, spec.id, ELEVEN));
      expect(stored.at(-1)!.t, spec.id).toBe(ELEVEN - HOUR_MS);
    }
  });
});
