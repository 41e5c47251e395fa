import { bucketStart } from '@shared/aggregate';
import type { CandlesQuery, FairnessQuery, TicksQuery } from '@shared/market/requests';
import { intervalMs, type Candle, type Interval } from '@shared/product';
import type { GateLimits } from '@server/platform/concurrency-gate';
import type { ConcurrencyGate } from '@server/platform/concurrency-gate';
import { validationFailed } from '@server/platform/http/errors';
import type { CachedBody, ReadCache } from '@server/platform/read-cache';
import type { FairnessService } from './fairness.service';
import type { MarketService } from './market.service';

/**
 * The figures of the anonymous market reads (DECISIONS.md, Public market reads and order
 * throttles). The rate per client address is MARKET_READ_RATE (config.ts).
 */
export const publicReadFigures = {
  /** How long an answer about "now" is kept: it changes with every tick. */
  liveTtlMs: 1000,
  /** How long an answer about a range that is over is kept. */
  pastTtlMs: 5 * 60_000,
  /**
   * A range that ended this long ago is over: the tape writer has written it (it flushes every
   * 100 ms; a database outage longer than this can still add to it late, for one `pastTtlMs`).
   */
  settledAfterMs: 60_000,
  /** The longest `to - from` of one tape read, unless a fairness period is longer (app.ts). */
  ticksMaxSpanMs: 3_600_000,
  /**
   * Database reads of these endpoints running at once per api process, and waiting: PGlite
   * runs one statement at a time for everyone, so one there; PostgreSQL 3 of the pool's 10
   * connections, the rest for placements, sessions and settlement.
   */
  gate: {
    pglite: { concurrency: 1, queue: 50, maxWaitMs: 2000 },
    postgres: { concurrency: 3, queue: 100, maxWaitMs: 2000 },
  } satisfies Record<'pglite' | 'postgres', GateLimits>,
};

export interface PublicReadsDeps {
  market: MarketService;
  fairness: FairnessService;
  cache: ReadCache;
  gate: ConcurrencyGate;
  /** The longest `to - from` one tape read may ask for (ms). */
  ticksMaxSpanMs: number;
}

/**
 * The anonymous market reads that reach the database (candles, the tape, fairness periods),
 * through the shared cache (identical requests cost one query and one JSON) and the gate (at
 * most a few of this process's database reads at once). Keys name the request as the service
 * will read it, so two requests that read the same rows share one answer.
 */
export function createPublicReads(d: PublicReadsDeps) {
  const { market, cache, gate } = d;
  const f = publicReadFigures;
  /** Kept briefly while `end` is recent, longer once it is over. */
  const ttlUntil = (end: number) =>
    end <= market.now() - f.settledAfterMs ? f.pastTtlMs : f.liveTtlMs;
  const read =
    <T>(load: () => Promise<T>) =>
    () =>
      gate.run(load);

  /** The candles before `end` (a bucket boundary), as the service reads them. */
  const candlesBefore = (q: CandlesQuery, end: number) =>
    cache.get(
      `candles:${q.product}:${q.interval}:${q.limit}:${end}`,
      ttlUntil(end),
      read(() => market.candles({ ...q, before: end })),
    );

  return {
    /**
     * Candles. Paging back (`before`) reads the window as the service does. The newest window
     * ("now") of a coarse interval is two reads: its finished buckets, kept long (they change
     * only when a bucket finishes), and the current bucket (its stored hours and the current
     * hour's minutes; 5m and 15m: its minutes), kept a second; so a 1D chart costs one small
     * query a second, not a roll-up.
     */
    candles(q: CandlesQuery): Promise<CachedBody> {
      market.spec(q.product);
      const ms = intervalMs[q.interval as Interval];
      if (q.before !== undefined) return candlesBefore(q, bucketStart(q.before - 1, ms) + ms);
      const current = bucketStart(market.now(), ms);
      if (ms === 60_000) return candlesBefore(q, current + ms);
      return cache.get(
        `candles:${q.product}:${q.interval}:${q.limit}:now:${current}`,
        f.liveTtlMs,
        async () => {
          const [history, live] = await Promise.all([
            candlesBefore(q, current),
            read(() => market.candles({ ...q, limit: 1, before: current + ms }))(),
          ]);
          // The service's window: the newest `limit` buckets that start after end - limit × ms.
          const from = current + ms - q.limit * ms;
          const older = (history.value as Candle[]).filter((c) => c.t >= from);
          return [...older.slice(Math.max(0, older.length - (q.limit - live.length))), ...live];
        },
      );
    },

    /**
     * The tape. A window longer than `ticksMaxSpanMs` is refused (400, `from`) before any
     * work: the database reads every tick of the window to order it by seq. Without `to`, the
     * window ends now and is kept a second.
     */
    ticks(q: TicksQuery): Promise<CachedBody> {
      market.spec(q.product);
      const to = q.to ?? market.now();
      const from = q.from ?? to - 5 * 60_000;
      if (to - from > d.ticksMaxSpanMs)
        throw validationFailed(
          'from',
          `from must be at most ${d.ticksMaxSpanMs / 60_000} minutes before to (or now)`,
        );
      const key = `ticks:${q.product}:${q.from ?? '-'}:${q.to ?? 'now'}:${q.after ?? 0}:${q.limit}`;
      return cache.get(
        key,
        q.to === undefined ? f.liveTtlMs : ttlUntil(q.to),
        read(() => market.ticks(q)),
      );
    },

    /** Fairness periods: kept a second (a reveal can come at any time). */
    fairness(q: FairnessQuery): Promise<CachedBody> {
      market.spec(q.product);
      const key = `fairness:${q.product}:${q.from ?? '-'}:${q.to ?? '-'}:${q.limit}`;
      return cache.get(
        key,
        f.liveTtlMs,
        read(() => d.fairness.list(q)),
      );
    },
  };
}

export type PublicReads = ReturnType<typeof createPublicReads>;
