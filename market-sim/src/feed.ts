import type { Bus } from '@infra/bus';
import type { Db, Queryable } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { MarketState, ProductState } from '@shared/bus';
import type { ProductStatus, Tick } from '@shared/market';
import { bucketStart, presentStats } from '@shared/aggregate';
import { unitsToPrice } from '@shared/price';
import type { ProductSpec } from './catalogue';
import { deriveSeed, createRng, type Rng } from './rng';
import { backfill, coarseHistory } from './backfill';
import { isOpen, nextOpen } from './calendar';
import { startCommitments, type Commitments } from './commitments';
import { keyedRng, newSecret, replayTicks } from './fairness';
import { periodAt, ticksAfter } from './fairness.repo';
import { createPriceModel, type PriceModel } from './model';
import { ProductBook } from './product-book';
import { productStatus } from './status';
import {
  candlesSince,
  HOUR_MS,
  tapeWatermark,
  lastTicks,
  maintenanceList,
  pruneTicks,
  type TapeRow,
} from './tape.repo';
import { createTapeWriter, type TapeFigures } from './tape-writer';
import { FeedGaps } from './feed-gaps';

/**
 * Where live ticks draw their randomness (docs/FAIRNESS.md):
 * - `committed` (production): a fresh secret per product and period, committed to before the
 *   period begins and revealed after it; nobody can predict a tick, anyone can verify the tape.
 * - `seeded`: the public seed, for tests and benchmarks whose point is to replay. Anyone who
 *   knows the seed knows every future tick, so production configuration refuses it.
 * The first-start backfill of history is seeded in both: it is the past, and reproducible.
 */
export type Randomness = { kind: 'committed'; periodMs: number } | { kind: 'seeded' };

export interface FeedOptions {
  db: Db;
  bus: Bus;
  catalogue: readonly ProductSpec[];
  /** Seed of the backfill of history, and of live ticks when `randomness` is seeded. */
  seed: number;
  randomness: Randomness;
  ticksPerSecond: number;
  backfillHours: number;
  /**
   * Days of coarse (hourly) history drawn before a first start's backfill, for the long charts
   * (4h, 1D); 0 for none. Only with a backfill (`backfillHours` > 0).
   */
  historyDays?: number;
  retentionHours: number;
  log?: Logger;
  /** Injected clock (tests). */
  now?: () => number;
  /** How often the tape writer flushes (ms). */
  flushMs?: number;
  /** Loop granularity; ticks are scheduled individually with jitter. */
  loopMs?: number;
  /**
   * The simulator's lease (lease.ts), when several may run: nothing is published while `leading()`
   * is false, and each tape write runs `fence` first, so a former leader never writes the tape.
   */
  lease?: { leading(): boolean; fence(tx: Queryable): Promise<void> };
  /** Told of every tick emitted (the `sim_ticks_total` counter). */
  onTick?: (productId: string) => void;
  /**
   * Told of the time between each tick and the one before it, while the product stayed open (the
   * `sim_tick_gap_seconds` histogram). A restart's first tick counts the silence since the tape's
   * last tick when the market was open then.
   */
  onGap?: (productId: string, gapMs: number) => void;
  /** Given the tape writer's figures when the feed starts, and null when it stops (metrics). */
  onTape?: (tape: (() => TapeFigures) | null) => void;
}

export interface Feed {
  state(): MarketState;
  stop(): Promise<void>;
}

const DAY = 86_400_000;

/**
 * Where a product's first backfill starts: `hours` back, or further back by whole days (a week at
 * most) until the window holds some trading. A first start at the weekend then still gives
 * closed markets their last price and history, instead of none until they open.
 */
export function firstBackfillStart(spec: ProductSpec, start: number, hours: number): number {
  let from = start - hours * 3_600_000;
  if (hours <= 0) return from;
  const trades = (ts: number) => {
    const opens = isOpen(spec.calendar, ts) ? ts : nextOpen(spec.calendar, ts);
    return opens !== null && opens < start;
  };
  for (let day = 0; day < 7 && !trades(from); day++) from -= DAY;
  return from;
}

/**
 * The market simulator: resumes each product from the tape (backfilling the gap, at most
 * `backfillHours`), then emits jittered ticks for open products, publishes them on the bus at
 * once, records them through the batching tape writer, and publishes the market state every second.
 */
export async function startFeed(o: FeedOptions): Promise<Feed> {
  const now = o.now ?? Date.now;
  const loopMs = o.loopMs ?? 20;
  const meanInterval = 1000 / o.ticksPerSecond;
  // The tape's watermark (tape_watermark): once live, every write says the tape is complete
  // through the moment it took its batch. Tick times never go below it, even if the clock
  // steps back.
  let live = false;
  let throughMs = 0;
  // Ticks are published once the write that holds them has committed under the lease's fence
  // (docs/FAIRNESS.md): every tick anyone sees is on the tape, and a simulator that lost its
  // lease, or cannot reach the database, shows nothing it could not record.
  const lastPublished = new Map<string, Tick>();
  const publishWritten = (rows: readonly TapeRow[]) => {
    for (const row of rows) {
      const spec = specs.get(row.productId);
      if (!spec) continue;
      const tick: Tick = {
        id: row.productId,
        seq: row.seq,
        ts: row.ts,
        price: unitsToPrice(row.price, spec.precision),
      };
      lastPublished.set(tick.id, tick);
      void publish({ type: 'tick', tick });
    }
  };
  const specs = new Map(o.catalogue.map((spec) => [spec.id, spec]));
  const writer = createTapeWriter(o.db, {
    log: o.log,
    flushMs: o.flushMs,
    through: () => (live && leading() ? (throughMs = Math.max(throughMs, now() - 1)) : null),
    fence: o.lease ? (tx) => o.lease!.fence(tx) : undefined,
    onWritten: publishWritten,
  });
  o.onTape?.(() => ({ buffered: writer.pending(), lastWriteMs: writer.lastWriteMs() }));
  const leading = () => o.lease?.leading() ?? true;
  const maintenance = await maintenanceList(o.db);
  const lastTape = await lastTicks(o.db);
  throughMs = await tapeWatermark(o.db);

  const committed = o.randomness.kind === 'committed' ? o.randomness : null;
  const books = new Map<string, ProductBook>();
  const backfillJitter: Rng = createRng(deriveSeed(o.seed, 'jitter'));
  for (const spec of o.catalogue) {
    const start = now();
    const history = await candlesSince(o.db, spec.id, start - DAY);
    const last = lastTape.get(spec.id) ?? null;
    const resumed = committed ? await resumeCommitted(o, spec, last) : null;
    const model =
      resumed?.model ??
      createPriceModel(spec, deriveSeed(o.seed, `${spec.id}:${last?.seq ?? 0}`), last?.price);
    const historyDays = o.historyDays ?? 0;
    if (!last && o.backfillHours > 0 && historyDays > 0) {
      const until = firstBackfillStart(spec, start, o.backfillHours);
      const made = await coarseHistory(
        o.db,
        spec,
        model,
        until - historyDays * DAY,
        until,
        o.ticksPerSecond,
      );
      o.log?.info({ product: spec.id, candles: made, days: historyDays }, 'drew coarse history');
    }
    const book = new ProductBook(spec, model, last, history);
    book.periodStart = resumed?.periodStart ?? null;
    // A first start backfills history. A seeded feed also backfills the gap after a restart; a
    // committed one leaves the gap as it is: ticks made up afterwards could not have been
    // committed to before their time, and the next live tick steps the model over the gap.
    const from =
      book.lastTs === null
        ? firstBackfillStart(spec, start, o.backfillHours)
        : committed
          ? start
          : // Never under the watermark: the settled orders' exits were final there.
            Math.max(book.lastTs, throughMs + 1, start - o.backfillHours * 3_600_000);
    if (o.backfillHours > 0 && start - from > meanInterval) {
      const made = await backfill(o.db, book, from, start, meanInterval, backfillJitter);
      o.log?.info(
        { product: spec.id, ticks: made, from: new Date(from).toISOString() },
        'backfilled history',
      );
    }
    books.set(spec.id, book);
  }
  // The hourly candles (candles_1h): the hours over before now are rolled up in the writer's
  // first write, which runs now (the backfill's and the coarse history's, hours a simulator that
  // stopped mid-hour left; fenced like every write, and retried with the next while the database
  // is away); the hour the feed starts in, the writer rolls up once it is over, as it does every
  // hour it writes minutes of.
  const startHour = bucketStart(Math.max(now(), throughMs + 1), HOUR_MS);
  writer.rollUpBefore(
    o.catalogue.map((s) => s.id),
    startHour,
  );
  for (const spec of o.catalogue) writer.rollUpWhenOver({ productId: spec.id, t: startHour });
  await writer.flush();
  // Live tick times need no secret (the draws do), but a committed feed keeps them unpredictable too.
  const jitter: Rng = committed ? keyedRng(newSecret(), 'jitter', 0) : backfillJitter;
  const commitments: Commitments | null = committed
    ? await startCommitments({
        db: o.db,
        catalogue: o.catalogue,
        periodMs: committed.periodMs,
        now,
        log: o.log,
      })
    : null;
  const uncommitted = new Set<string>();

  const statusOf = (spec: ProductSpec, ts: number) => productStatus(spec, ts, maintenance);

  const statuses = new Map<string, ProductStatus>();
  const nextTickAt = new Map<string, number>();
  // Since when each product has been open without a break: a gap counts only inside that time.
  const openSince = new Map<string, number>();
  const gaps = new FeedGaps();
  for (const spec of o.catalogue) {
    statuses.set(spec.id, statusOf(spec, now()).status);
    const lastTs = books.get(spec.id)!.lastTs;
    openSince.set(spec.id, lastTs !== null && isOpen(spec.calendar, lastTs) ? lastTs : now());
    nextTickAt.set(spec.id, now() + meanInterval * jitter.next());
  }

  // One warning per outage of the bus (Redis away drops every publish), not one per message.
  let warnedAt = -Infinity;
  const publish = (m: Parameters<Bus['publish']>[0]) =>
    o.bus.publish(m).catch((err: unknown) => {
      if (Date.now() - warnedAt < 10_000) return;
      warnedAt = Date.now();
      o.log?.warn({ err: (err as Error).message }, 'bus publish failed');
    });

  /**
   * The keyed stream of the next tick of `book` at `ts` (committed feeds), recording the period's
   * start with its first tick; undefined for a seeded feed; null when the period has no stored
   * commitment yet, and then no tick is made.
   */
  const drawsFor = (book: ProductBook, ts: number): Rng | undefined | null => {
    if (!commitments) return undefined;
    const period = commitments.periodFor(book.spec.id, ts);
    const id = book.spec.id;
    if (!period) {
      if (!uncommitted.has(id)) o.log?.warn({ product: id }, 'no stored commitment; holding ticks');
      uncommitted.add(id);
      return null;
    }
    uncommitted.delete(id);
    if (book.periodStart !== period.start) {
      book.useParams(period.params);
      writer.addPeriodStart({ productId: id, periodStart: period.start, start: book.startPoint() });
      book.periodStart = period.start;
    }
    return keyedRng(period.secret, id, book.lastSeq + 1);
  };

  const emitTick = (book: ProductBook, ts: number) => {
    const rng = drawsFor(book, ts);
    if (rng === null) return;
    const previous = book.lastTs;
    if (previous !== null && previous >= openSince.get(book.spec.id)!) {
      gaps.record(book.spec.id, ts, ts - previous);
      o.onGap?.(book.spec.id, ts - previous);
    }
    const { row, candle } = book.step(ts, rng);
    o.onTick?.(row.productId);
    writer.addTick(row);
    writer.setCandle({ ...candle, productId: row.productId });
  };

  const state = (): MarketState => {
    const ts = now();
    const products: ProductState[] = o.catalogue.map((spec) => {
      const book = books.get(spec.id)!;
      const st = statusOf(spec, ts);
      return {
        id: spec.id,
        ...st,
        // The last tick published (or on the tape at start): one made but not yet written is
        // nobody's to see.
        last: lastPublished.get(spec.id) ?? null,
        stats: presentStats(book.rolling.stats(ts), spec.precision, spec.lotSize, book.priceUnits),
        feedGapMaxMs: gaps.largest(spec.id, ts),
      };
    });
    return { ts, products };
  };

  const everySecond = () => {
    if (!leading()) return;
    const ts = now();
    for (const spec of o.catalogue) {
      const st = statusOf(spec, ts);
      if (statuses.get(spec.id) !== st.status) {
        statuses.set(spec.id, st.status);
        if (st.status === 'open') openSince.set(spec.id, ts);
        void publish({ type: 'product', product: { id: spec.id, ...st } });
        o.log?.info({ product: spec.id, ...st }, 'product status changed');
      }
    }
    void publish({ type: 'market', market: state() });
  };

  const loop = () => {
    if (!leading()) return;
    const ts = Math.max(now(), throughMs + 1);
    for (const spec of o.catalogue) {
      if (statuses.get(spec.id) !== 'open') continue;
      const due = nextTickAt.get(spec.id)!;
      if (ts < due) continue;
      emitTick(books.get(spec.id)!, ts);
      // Jittered: uniformly 0.5–1.5 mean intervals after the previous schedule, never in the past.
      nextTickAt.set(spec.id, Math.max(ts, due) + meanInterval * (0.5 + jitter.next()));
    }
  };

  const unsubscribe = await o.bus.subscribe('maintenance', (m) => {
    if (m.on) maintenance.set(m.id, m.opensAt ?? null);
    else maintenance.delete(m.id);
    everySecond();
  });

  const prune = async () => {
    try {
      const gone = await pruneTicks(o.db, now() - o.retentionHours * 3_600_000);
      if (gone) o.log?.info({ ticks: gone }, 'pruned old ticks');
    } catch (err) {
      o.log?.warn({ err: (err as Error).message }, 'prune failed');
    }
  };

  // What clients may see of each product before its first new tick: the tape's last one.
  for (const [id, book] of books) {
    const last = book.lastTick();
    if (last && !lastPublished.has(id)) lastPublished.set(id, last);
  }
  live = true;
  const timers = [
    setInterval(loop, loopMs),
    setInterval(everySecond, 1000),
    setInterval(() => void prune(), 600_000),
  ];
  everySecond();
  void prune();

  return {
    state,
    async stop() {
      for (const t of timers) clearInterval(t);
      commitments?.stop();
      await unsubscribe();
      await writer.stop();
      o.onTape?.(null);
    },
  };
}

/**
 * A committed feed's restart: the model resumes from its exact state after the last recorded
 * tick, replayed from the start of that tick's period with the period's secret (the very replay
 * `verify:tape` does). A tape the replay disagrees with, or one recorded without commitments
 * (a seeded feed before), resumes from its last price in a calm market and says so.
 */
async function resumeCommitted(
  o: FeedOptions,
  spec: ProductSpec,
  last: TapeRow | null,
): Promise<{ model: PriceModel; periodStart: number | null } | null> {
  if (!last) return null;
  const period = await periodAt(o.db, spec.id, last.ts);
  if (period?.start) {
    const ticks = await ticksAfter(o.db, spec.id, period.start.seq, period.periodEnd);
    const replay = replayTicks(
      spec.id,
      period.model,
      Buffer.from(period.secret, 'hex'),
      period.start,
      ticks,
    );
    if (replay.complete && !replay.mismatches.length && replay.end.seq === last.seq) {
      const model = createPriceModel({ id: spec.id, ...period.model }, 0, replay.end.state);
      return { model, periodStart: period.periodStart };
    }
    o.log?.error(
      { product: spec.id, period: period.periodStart, mismatches: replay.mismatches.slice(0, 5) },
      'the tape does not match its commitments; resuming from the last price',
    );
  }
  return { model: createPriceModel(spec, 0, last.price), periodStart: null };
}
