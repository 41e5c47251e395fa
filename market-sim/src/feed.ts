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
import { createTapeWriter, type TapeFigures, type TapeWriter } from './tape-writer';
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
 * The feed's clock and the tape's watermark (tape_watermark): once live, every write says the
 * tape is complete through the moment it took its batch. Tick times never go below it, even if
 * the clock steps back.
 */
interface FeedClock {
  now: () => number;
  /** Whether this simulator leads (always, without a lease): nothing is published otherwise. */
  leading: () => boolean;
  live: boolean;
  throughMs: number;
}

function feedClock(o: FeedOptions): FeedClock {
  return {
    now: o.now ?? Date.now,
    leading: () => o.lease?.leading() ?? true,
    live: false,
    throughMs: 0,
  };
}

/** The time a tick made now gets: never at or under the watermark. */
const tickTime = (clock: FeedClock) => Math.max(clock.now(), clock.throughMs + 1);

type Publish = (m: Parameters<Bus['publish']>[0]) => Promise<void>;

/**
 * Publishes on the bus, with one warning per outage (Redis away drops every publish), not one
 * per message.
 */
function busPublisher(o: FeedOptions): Publish {
  let warnedAt = -Infinity;
  return (m) =>
    o.bus.publish(m).catch((err: unknown) => {
      if (Date.now() - warnedAt < 10_000) return;
      warnedAt = Date.now();
      o.log?.warn({ err: (err as Error).message }, 'bus publish failed');
    });
}

/**
 * The batching tape writer. Ticks are published once the write that holds them has committed
 * under the lease's fence (docs/FAIRNESS.md): every tick anyone sees is on the tape, and a
 * simulator that lost its lease, or cannot reach the database, shows nothing it could not record.
 */
function feedTapeWriter(
  o: FeedOptions,
  clock: FeedClock,
  published: (tick: Tick) => void,
): TapeWriter {
  const specs = new Map(o.catalogue.map((spec) => [spec.id, spec]));
  return createTapeWriter(o.db, {
    log: o.log,
    flushMs: o.flushMs,
    through: () =>
      clock.live && clock.leading()
        ? (clock.throughMs = Math.max(clock.throughMs, clock.now() - 1))
        : null,
    fence: o.lease ? (tx) => o.lease!.fence(tx) : undefined,
    onWritten: (rows: readonly TapeRow[]) => {
      for (const row of rows) {
        const spec = specs.get(row.productId);
        if (!spec) continue;
        published({
          id: row.productId,
          seq: row.seq,
          ts: row.ts,
          price: unitsToPrice(row.price, spec.precision),
        });
      }
    },
  });
}

/** How the products resume: the same for each of them. */
interface ResumeOptions {
  now: () => number;
  committed: { periodMs: number } | null;
  throughMs: number;
  meanInterval: number;
  backfillJitter: Rng;
}

/**
 * One product's book, resumed from the tape's last tick of it (`last`): its price model (a
 * committed feed's replayed from its period), a first start's coarse history, and the backfill.
 */
async function resumeBook(
  o: FeedOptions,
  spec: ProductSpec,
  last: TapeRow | null,
  { now, committed, throughMs, meanInterval, backfillJitter }: ResumeOptions,
): Promise<ProductBook> {
  const start = now();
  const history = await candlesSince(o.db, spec.id, start - DAY);
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
  return book;
}

/**
 * The hourly candles (candles_1h): the hours over before now are rolled up in the writer's
 * first write, which runs now (the backfill's and the coarse history's, hours a simulator that
 * stopped mid-hour left; fenced like every write, and retried with the next while the database
 * is away); the hour the feed starts in, the writer rolls up once it is over, as it does every
 * hour it writes minutes of.
 */
async function rollUpAtStart(o: FeedOptions, clock: FeedClock, writer: TapeWriter) {
  const startHour = bucketStart(tickTime(clock), HOUR_MS);
  writer.rollUpBefore(
    o.catalogue.map((s) => s.id),
    startHour,
  );
  for (const spec of o.catalogue) writer.rollUpWhenOver({ productId: spec.id, t: startHour });
  await writer.flush();
}

/** What the feed's parts share about the products, each map by product id. */
interface FeedProducts {
  books: Map<string, ProductBook>;
  /** Products stopped for maintenance, with their opening time (the `maintenance` channel's). */
  maintenance: Map<string, number | null>;
  statuses: Map<string, ProductStatus>;
  nextTickAt: Map<string, number>;
  /** Since when each product has been open without a break: a gap counts only inside that time. */
  openSince: Map<string, number>;
  gaps: FeedGaps;
  /**
   * The last tick published (or on the tape at start): one made but not yet written is nobody's
   * to see.
   */
  lastPublished: Map<string, Tick>;
}

/** What the live parts of the feed (ticker, market status) work with. */
interface FeedContext {
  o: FeedOptions;
  clock: FeedClock;
  products: FeedProducts;
  writer: TapeWriter;
  publish: Publish;
  meanInterval: number;
}

/**
 * The live ticks, one loop over the products: each open product's next tick at its jittered
 * time, its draws from the period's keyed stream on a committed feed, recorded through the writer.
 */
function createTicker(ctx: FeedContext, commitments: Commitments | null, jitter: Rng) {
  const { o, clock, products, writer, meanInterval } = ctx;
  const uncommitted = new Set<string>();

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
    if (previous !== null && previous >= products.openSince.get(book.spec.id)!) {
      products.gaps.record(book.spec.id, ts, ts - previous);
      o.onGap?.(book.spec.id, ts - previous);
    }
    const { row, candle } = book.step(ts, rng);
    o.onTick?.(row.productId);
    writer.addTick(row);
    writer.setCandle({ ...candle, productId: row.productId });
  };

  return () => {
    if (!clock.leading()) return;
    const ts = tickTime(clock);
    for (const spec of o.catalogue) {
      if (products.statuses.get(spec.id) !== 'open') continue;
      const due = products.nextTickAt.get(spec.id)!;
      if (ts < due) continue;
      emitTick(products.books.get(spec.id)!, ts);
      // Jittered: uniformly 0.5–1.5 mean intervals after the previous schedule, never in the past.
      products.nextTickAt.set(spec.id, Math.max(ts, due) + meanInterval * (0.5 + jitter.next()));
    }
  };
}

/** What clients see of the market: its state, and each product's status when it changes. */
function createMarketStatus({ o, clock, products, publish }: FeedContext) {
  const statusOf = (spec: ProductSpec, ts: number) => productStatus(spec, ts, products.maintenance);

  const state = (): MarketState => {
    const ts = clock.now();
    const list: ProductState[] = o.catalogue.map((spec) => {
      const book = products.books.get(spec.id)!;
      const st = statusOf(spec, ts);
      return {
        id: spec.id,
        ...st,
        last: products.lastPublished.get(spec.id) ?? null,
        stats: presentStats(book.rolling.stats(ts), spec.precision, spec.lotSize, book.priceUnits),
        feedGapMaxMs: products.gaps.largest(spec.id, ts),
      };
    });
    return { ts, products: list };
  };

  const everySecond = () => {
    if (!clock.leading()) return;
    const ts = clock.now();
    for (const spec of o.catalogue) {
      const st = statusOf(spec, ts);
      if (products.statuses.get(spec.id) !== st.status) {
        products.statuses.set(spec.id, st.status);
        if (st.status === 'open') products.openSince.set(spec.id, ts);
        void publish({ type: 'product', product: { id: spec.id, ...st } });
        o.log?.info({ product: spec.id, ...st }, 'product status changed');
      }
    }
    void publish({ type: 'market', market: state() });
  };

  return { statusOf, state, everySecond };
}

/** Drops ticks older than the retention from the tape; a failure waits for the next round. */
async function pruneTape(o: FeedOptions, now: () => number) {
  try {
    const gone = await pruneTicks(o.db, now() - o.retentionHours * 3_600_000);
    if (gone) o.log?.info({ ticks: gone }, 'pruned old ticks');
  } catch (err) {
    o.log?.warn({ err: (err as Error).message }, 'prune failed');
  }
}

/**
 * The market simulator: resumes each product from the tape (backfilling the gap, at most
 * `backfillHours`), then emits jittered ticks for open products, publishes them on the bus at
 * once, records them through the batching tape writer, and publishes the market state every second.
 */
export async function startFeed(o: FeedOptions): Promise<Feed> {
  const clock = feedClock(o);
  const { now } = clock;
  const loopMs = o.loopMs ?? 20;
  const meanInterval = 1000 / o.ticksPerSecond;
  const publish = busPublisher(o);
  const lastPublished = new Map<string, Tick>();
  const writer = feedTapeWriter(o, clock, (tick) => {
    lastPublished.set(tick.id, tick);
    void publish({ type: 'tick', tick });
  });
  o.onTape?.(() => ({ buffered: writer.pending(), lastWriteMs: writer.lastWriteMs() }));
  const maintenance = await maintenanceList(o.db);
  const lastTape = await lastTicks(o.db);
  clock.throughMs = await tapeWatermark(o.db);

  const committed = o.randomness.kind === 'committed' ? o.randomness : null;
  const books = new Map<string, ProductBook>();
  const backfillJitter: Rng = createRng(deriveSeed(o.seed, 'jitter'));
  const resume = { now, committed, throughMs: clock.throughMs, meanInterval, backfillJitter };
  for (const spec of o.catalogue)
    books.set(spec.id, await resumeBook(o, spec, lastTape.get(spec.id) ?? null, resume));
  await rollUpAtStart(o, clock, writer);
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

  const products: FeedProducts = {
    books,
    maintenance,
    statuses: new Map(),
    nextTickAt: new Map(),
    openSince: new Map(),
    gaps: new FeedGaps(),
    lastPublished,
  };
  const ctx: FeedContext = { o, clock, products, writer, publish, meanInterval };
  const ticker = createTicker(ctx, commitments, jitter);
  const market = createMarketStatus(ctx);
  for (const spec of o.catalogue) {
    products.statuses.set(spec.id, market.statusOf(spec, now()).status);
    const lastTs = books.get(spec.id)!.lastTs;
    products.openSince.set(
      spec.id,
      lastTs !== null && isOpen(spec.calendar, lastTs) ? lastTs : now(),
    );
    products.nextTickAt.set(spec.id, now() + meanInterval * jitter.next());
  }

  const unsubscribe = await o.bus.subscribe('maintenance', (m) => {
    if (m.on) maintenance.set(m.id, m.opensAt ?? null);
    else maintenance.delete(m.id);
    market.everySecond();
  });

  // What clients may see of each product before its first new tick: the tape's last one.
  for (const [id, book] of books) {
    const last = book.lastTick();
    if (last && !lastPublished.has(id)) lastPublished.set(id, last);
  }
  clock.live = true;
  const timers = [
    setInterval(ticker, loopMs),
    setInterval(market.everySecond, 1000),
    setInterval(() => void pruneTape(o, now), 600_000),
  ];
  market.everySecond();
  void pruneTape(o, now);

  return {
    state: market.state,
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
