import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketStart, mergeCandles, type CandleUnits } from '@shared/aggregate';
import { priceToUnits } from '@shared/price';
import { intervalMs, type Candle, type Interval } from '@shared/product';
import type { Db, Queryable } from '@infra/db';
import { migrate, readMigrations } from '@infra/db/migrate';
import { advanceWatermark, rollUpHoursBefore, upsertCandles } from '@sim/tape.repo';
import { buildTestApi } from '@tests/support/api';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { WEDNESDAY_AFTERNOON, madeUpCandles } from '@tests/support/market';
import { CANDLE_READ_MAX, selectCandles, type CandleRow } from './market.repo';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** 15:37:30 on a Wednesday: the current hour has 37 whole minutes and part of the 38th. */
const NOW = WEDNESDAY_AFTERNOON + 37 * MINUTE + 30_000;

const units = (r: CandleRow): CandleUnits => ({ ...r, a: BigInt(r.a) });

/** The rows of `candles` of a product, oldest first. */
async function rowsOf(db: Queryable, productId: string): Promise<CandleUnits[]> {
  const { rows } = await db.query<CandleRow>(
    'SELECT t, o, h, l, c, v, a::text AS a, n FROM candles WHERE product_id = $1 ORDER BY t',
    [productId],
  );
  return rows.map(units);
}

/** Minute starts from `from` (rounded up to one) to `to` (exclusive) where `keep` holds. */
function minutes(from: number, to: number, keep: (t: number) => boolean = () => true) {
  const out: number[] = [];
  for (let t = Math.ceil(from / MINUTE) * MINUTE; t < to; t += MINUTE) if (keep(t)) out.push(t);
  return out;
}

/** What the window's candles are: the shared aggregation of every stored row, the newest `limit`. */
function expected(rows: CandleUnits[], ms: number, limit: number, before: number) {
  return mergeCandles(rows, ms)
    .filter((c) => c.t >= before - limit * ms && c.t < before)
    .slice(-limit);
}

async function insertCandles(db: Db, candles: ReturnType<typeof madeUpCandles>) {
  for (let i = 0; i < candles.length; i += 2000)
    await upsertCandles(db, candles.slice(i, i + 2000));
}

/**
 * The long charts read the hourly roll-up (candles_1h) for the hours it holds and the 1-minute
 * rows after them; the answers are those of rolling up the 1-minute rows, and a chart of months
 * costs a read of hours, not of minutes.
 */
describe.each(dbDrivers())('charts from hourly candles on %s', (kind) => {
  it("the migration fills candles_1h from the stored candles: every hour before the watermark's", async () => {
    const t = await openTestDb(kind, { migrated: false });
    try {
      await migrate(
        t.db,
        readMigrations().filter((m) => m.version < '0031'),
      );
      // Coarse history (hourly rows of `candles`) for three days, then two days of minutes up to
      // 15:37; the tape's watermark at 15:37:30.
      const history = minutes(NOW - 5 * DAY, NOW - 2 * DAY, (t) => t % HOUR === 0);
      await insertCandles(t.db, [
        ...madeUpCandles('BTCUSDT', history, 1),
        ...madeUpCandles('BTCUSDT', minutes(NOW - 2 * DAY, NOW), 2),
        ...madeUpCandles(
          'EURUSD',
          minutes(NOW - 2 * DAY, NOW, (t) => t % (7 * MINUTE) !== 0),
          3,
        ),
      ]);
      await advanceWatermark(t.db, NOW);
      expect(await migrate(t.db)).toContain('0031_candles_1h');
      for (const id of ['BTCUSDT', 'EURUSD']) {
        const { rows } = await t.db.query<CandleRow>(
          `SELECT t, o, h, l, c, v, a::text AS a, n FROM candles_1h WHERE product_id = $1 ORDER BY t`,
          [id],
        );
        const current = bucketStart(NOW, HOUR);
        const want = mergeCandles(await rowsOf(t.db, id), HOUR).filter((c) => c.t < current);
        expect(rows.map(units), id).toEqual(want);
        expect(want.length).toBeGreaterThan(id === 'BTCUSDT' ? 100 : 40);
      }
    } finally {
      await t.drop();
    }
  });

  describe('over a generated tape', () => {
    let t: TestDb;
    const ids = ['BTCUSDT', 'US500', 'EURUSD'];
    const rows = new Map<string, CandleUnits[]>();

    beforeAll(async () => {
      t = await openTestDb(kind);
      const since = NOW - 4 * DAY;
      // BTCUSDT: hourly history (as a first start draws it) for 16 days, then 4 days of every
      // minute up to now. US500: 13:30 to 16:37 each day (it opens and closes mid-hour).
      // EURUSD: minutes with gaps, none in the current hour.
      const dayTime = (t: number) => t % DAY;
      await insertCandles(t.db, [
        ...madeUpCandles(
          'BTCUSDT',
          minutes(NOW - 20 * DAY, since, (t) => t % HOUR === 0),
          4,
        ),
        ...madeUpCandles('BTCUSDT', minutes(since, NOW), 5),
        ...madeUpCandles(
          'US500',
          minutes(
            since,
            NOW,
            (t) => dayTime(t) >= 13.5 * HOUR && dayTime(t) < 16 * HOUR + 37 * MINUTE,
          ),
          6,
        ),
        ...madeUpCandles(
          'EURUSD',
          minutes(since, bucketStart(NOW, HOUR) - 6 * MINUTE, (t) => (t / MINUTE) % 10 < 7),
          7,
        ),
      ]);
      // What a simulator's start leaves: every hour over is in candles_1h.
      await rollUpHoursBefore(t.db, ids, bucketStart(NOW, HOUR));
      for (const id of ids) rows.set(id, await rowsOf(t.db, id));
    });
    afterAll(() => t.drop());

    /** Every interval, limit and window end (now, the current bucket's start, history, the
     * edge of the hourly history, deep in it): read, and as the 1-minute rows roll up. */
    const compare = async () => {
      const got: Record<string, CandleUnits[]> = {};
      const want: Record<string, CandleUnits[]> = {};
      for (const id of ids)
        for (const interval of ['5m', '15m', '1h', '4h', '1d'] as Interval[]) {
          const ms = intervalMs[interval];
          const next = bucketStart(NOW, ms) + ms;
          const ends = [
            next,
            next - ms,
            next - 7 * ms,
            bucketStart(NOW - 4 * DAY, ms) + ms,
            bucketStart(NOW - 10 * DAY, ms),
          ];
          for (const limit of [1, 5, 1000])
            for (const before of ends) {
              const key = `${id} ${interval} × ${limit} before ${before}`;
              got[key] = (await selectCandles(t.db, id, ms, limit, before)).map(units);
              want[key] = expected(rows.get(id)!, ms, limit, before);
            }
        }
      expect(got).toEqual(want);
      // Not vacuous: the 1D × 1000 of BTCUSDT has every day of the tape.
      expect(want[`BTCUSDT 1d × 1000 before ${bucketStart(NOW, DAY) + DAY}`]).toHaveLength(21);
    };

    it('answers every interval exactly as rolling up the 1-minute rows, the current hour partly filled', async () => {
      await compare();
    });

    it('answers the same while the newest hours are not rolled up yet', async () => {
      // As when a simulator of an older version still writes: the minutes after the newest stored
      // hour are read instead.
      await t.db.query('DELETE FROM candles_1h WHERE product_id = $1 AND t >= $2', [
        'BTCUSDT',
        bucketStart(NOW, HOUR) - 3 * HOUR,
      ]);
      await t.db.query('DELETE FROM candles_1h WHERE product_id = $1', ['EURUSD']);
      await compare();
    });

    it('refuses a window end that is not a bucket boundary (the service aligns it)', async () => {
      await expect(selectCandles(t.db, 'BTCUSDT', HOUR, 5, NOW)).rejects.toThrow(RangeError);
    });
  });

  describe('over months of 1-minute rows', () => {
    let t: TestDb;
    const start = bucketStart(NOW - 310 * DAY, MINUTE);
    /** The tape's minute at t, from the formula the SQL below fills it with. */
    const minute = (t: number): CandleUnits => {
      const k = t / MINUTE;
      const o = 1_000_000 + ((k * 7919) % 5003);
      const c = 1_000_000 + (((k + 1) * 7919) % 5003);
      const v = 1 + (k % 13);
      return {
        t,
        o,
        h: Math.max(o, c) + (k % 7),
        l: Math.min(o, c) - (k % 11),
        c,
        v,
        a: BigInt(v * c),
        n: 1 + (k % 5),
      };
    };

    beforeAll(async () => {
      t = await openTestDb(kind);
      // Every minute of 310 days of BTCUSDT, up to 15:37 (446 000 rows), and the stored hours
      // of eleven other products, as a deployment that has run for months has them.
      await t.db.query(
        `INSERT INTO candles (product_id, t, o, h, l, c, v, a, n)
         SELECT 'BTCUSDT', t, o, greatest(o, c) + k % 7, least(o, c) - k % 11, c, 1 + k % 13,
                (1 + k % 13) * c, 1 + k % 5
         FROM (SELECT t, k, 1000000 + (k * 7919) % 5003 AS o, 1000000 + ((k + 1) * 7919) % 5003 AS c
               FROM generate_series($1::bigint, $2::bigint, ${MINUTE}) t,
                    LATERAL (SELECT t / ${MINUTE} AS k) kk) g`,
        [start, NOW],
      );
      await t.db.query(
        `INSERT INTO candles_1h (product_id, t, o, h, l, c, v, a, n)
         SELECT 'OTHER' || p, t, 100, 110, 90, 105, 1, 105, 1
         FROM generate_series(1, 11) p, generate_series($1::bigint, $2::bigint, ${HOUR}) t`,
        [bucketStart(start, HOUR), bucketStart(NOW, HOUR) - HOUR],
      );
      await rollUpHoursBefore(t.db, ['BTCUSDT'], bucketStart(NOW, HOUR));
      await t.db.exec('ANALYZE candles; ANALYZE candles_1h');
    });
    afterAll(() => t.drop());

    const end = bucketStart(NOW, DAY) + DAY;
    const daily = () => {
      const all: CandleUnits[] = [];
      for (let m = start; m <= NOW - (NOW % MINUTE); m += MINUTE) all.push(minute(m));
      return expected(all, DAY, 300, end);
    };

    it('answers a 1D chart with its 300 daily candles, reading the stored hours and the current hour only', async () => {
      const want = daily();
      expect(want).toHaveLength(300);
      expect((await selectCandles(t.db, 'BTCUSDT', DAY, 300, end)).map(units)).toEqual(want);
      // The same answer from a read bounded to the window's hours up to 15:00 (7 191) and the
      // minutes from 15:00 to its end (the window's 1-minute rows would be 431 000).
      const bound = {
        minutes: (end - bucketStart(NOW, HOUR)) / MINUTE,
        hours: (bucketStart(NOW, HOUR) - (end - 300 * DAY)) / HOUR,
      };
      expect(bound.hours).toBe(7191);
      expect(bound.minutes).toBeLessThan(CANDLE_READ_MAX.minutes);
      const bounded = await selectCandles(t.db, 'BTCUSDT', DAY, 300, end, bound);
      expect(bounded.map(units)).toEqual(want);
      // And a bound one hour short leaves out the oldest day rather than answer part of it.
      const short = await selectCandles(t.db, 'BTCUSDT', DAY, 300, end, {
        ...bound,
        hours: bound.hours - 1,
      });
      expect(short.map(units)).toEqual(want.slice(1));
    });

    it('serves the 1D chart of months through the api, as the app asks it', async () => {
      const api = await buildTestApi(t.db, { now: () => NOW });
      try {
        const res = await api.http
          .get('/api/market/candles')
          .query({ product: 'BTCUSDT', interval: '1d', limit: 300 })
          .expect(200);
        const served = (res.body as Candle[]).map((c) =>
          [c.t, c.o, c.h, c.l, c.c].map((x, i) => (i ? priceToUnits(x as string, 2) : x)),
        );
        expect(served).toEqual(daily().map((c) => [c.t, c.o, c.h, c.l, c.c]));
      } finally {
        await api.close();
      }
    });

    // PostgreSQL's plan only (PGlite has another planner): defined for that driver alone.
    if (kind === 'postgres')
      it('reads it with index scans of the two primary keys and no sort of the product', async () => {
        const seen: { sql: string; params: unknown[] }[] = [];
        const recording = new Proxy(t.db, {
          get(target, prop) {
            if (prop === 'query')
              return (sql: string, params: unknown[]) => {
                seen.push({ sql, params });
                return target.query(sql, params);
              };
            return Reflect.get(target, prop, target) as unknown;
          },
        });
        await selectCandles(recording, 'BTCUSDT', DAY, 1000, end);
        const { sql, params } = seen[0]!;
        const { rows } = await t.db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
          params,
        );
        const nodes = flatten(rows[0]!['QUERY PLAN'][0].Plan);
        const scans = nodes.filter((n) => n['Relation Name']);
        expect(scans.map((n) => n['Node Type'])).not.toContain('Seq Scan');
        const read = (table: string) =>
          scans
            .filter((n) => n['Relation Name'] === table)
            .reduce(
              (s, n) =>
                s +
                (n['Actual Rows'] +
                  (n['Rows Removed by Filter'] ?? 0) +
                  (n['Rows Removed by Index Recheck'] ?? 0)) *
                  n['Actual Loops'],
              0,
            );
        // 309 days and 15 hours of stored hours; the 1-minute rows of the current hour (and the
        // one step back along candles_1h's key that finds where the stored hours end).
        expect(read('candles_1h')).toBeLessThanOrEqual(310 * 24 + 1);
        expect(read('candles')).toBe(38);
        for (const sort of nodes.filter((n) => n['Node Type'] === 'Sort'))
          expect(sort['Actual Rows']).toBeLessThanOrEqual(310 * 24 + 38);
      });
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

const flatten = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(flatten)];
