import type { MarketState, ProductState } from '@shared/bus';
import type { ProductStatus, Tick } from '@shared/market/model';
import { presentStats } from '@shared/aggregate';
import type { ProductSpec } from './catalogue';
import { deriveSeed, createRng, type Rng } from './rng';
import { isOpen } from './calendar';
import { startCommitments, type Commitments } from './commitments';
import { keyedRng, newSecret } from './fairness';
import type { ProductBook } from './product-book';
import { productStatus } from './status';
import { tapeWatermark, lastTicks, maintenanceList } from './tape.repo';
import type { TapeWriter } from './tape-writer';
import { FeedGaps } from './feed-gaps';
import { feedClock, type FeedClock } from './feed-clock';
import { resumeBook } from './feed-model';
import {
  busPublisher,
  feedTapeWriter,
  pruneTape,
  rollUpAtStart,
  type Publish,
} from './feed-writer';
import type { Feed, FeedOptions } from './feed-options';

export type { Feed, FeedOptions } from './feed-options';

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
 * The live ticks, made when a write takes its batch (DECISIONS 65): each open product's ticks
 * due by then, at their jittered times, in time order across products, drawn from the period's
 * keyed stream on a committed feed. Nothing runs between writes: at rest a second's ticks are
 * made at once, each at its own time, as the loop would have made them one by one.
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

  /** The open product whose next tick is the earliest due by `upTo`, if any. */
  const nextDue = (upTo: number) => {
    let next: { spec: ProductSpec; due: number } | null = null;
    for (const spec of o.catalogue) {
      if (products.statuses.get(spec.id) !== 'open') continue;
      const due = products.nextTickAt.get(spec.id)!;
      if (due <= upTo && (!next || due < next.due)) next = { spec, due };
    }
    return next;
  };

  /** Makes every tick due by `upTo` (now): the tape is then complete through it. */
  return (upTo: number) => {
    for (let next = nextDue(upTo); next; next = nextDue(upTo)) {
      const { spec, due } = next;
      // Never at or under the watermark, nor before the product opened (a tick due while it was
      // closed is made, once, as it opens).
      const ts = Math.max(Math.ceil(due), clock.throughMs + 1, products.openSince.get(spec.id)!);
      if (ts > upTo) {
        products.nextTickAt.set(spec.id, ts);
        continue;
      }
      emitTick(products.books.get(spec.id)!, ts);
      // Jittered: uniformly 0.5–1.5 mean intervals after the previous schedule, never in the past.
      products.nextTickAt.set(spec.id, Math.max(ts, due) + meanInterval * (0.5 + jitter.next()));
    }
  };
}

/** What clients see of the market: its state, and each product's status when it changes. */
function createMarketStatus(
  { o, clock, products, publish }: FeedContext,
  makeTicks: (upTo: number) => void,
) {
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
        // A product that closes gets its ticks due until now first (at rest, up to a second's).
        if (products.statuses.get(spec.id) === 'open') makeTicks(ts);
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
/**
 * The market simulator: resumes each product from the tape (backfilling the gap, at most
 * `backfillHours`), then emits jittered ticks for open products, publishes them on the bus at
 * once, records them through the batching tape writer, and publishes the market state every second.
 */
export async function startFeed(o: FeedOptions): Promise<Feed> {
  const clock = feedClock(o);
  const { now } = clock;
  const meanInterval = 1000 / o.ticksPerSecond;
  const publish = busPublisher(o);
  const lastPublished = new Map<string, Tick>();
  // The ticks are made as each write takes its batch (createTicker, once the feed is live).
  let makeTicks = (_upTo: number) => {};
  const writer = feedTapeWriter(
    o,
    clock,
    (tick) => {
      lastPublished.set(tick.id, tick);
      void publish({ type: 'tick', tick });
    },
    (upTo) => makeTicks(upTo),
  );
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
  makeTicks = createTicker(ctx, commitments, jitter);
  const market = createMarketStatus(ctx, makeTicks);
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
  // Who needs the tape current: a placement's entry waits on it, so do those who watch prices.
  const unwant = o.restFlushMs
    ? await Promise.all([
        o.bus.subscribe('tape-wanted', () => writer.wanted()),
        o.bus.subscribe('orders', () => writer.wanted()),
      ])
    : [];

  // What clients may see of each product before its first new tick: the tape's last one.
  for (const [id, book] of books) {
    const last = book.lastTick();
    if (last && !lastPublished.has(id)) lastPublished.set(id, last);
  }
  clock.live = true;
  const timers = [
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
      for (const off of unwant) await off();
      await writer.stop();
      o.onTape?.(null);
    },
  };
}
