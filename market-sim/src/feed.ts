import type { Bus } from '@server/platform/bus';
import type { Db } from '@server/platform/db';
import type { Logger } from '@server/platform/logger';
import type { MarketState, ProductState } from '@shared/bus';
import type { ProductStatus, Tick } from '@shared/market';
import { presentStats } from '@shared/aggregate';
import { unitsToPrice } from '@shared/price';
import type { ProductSpec } from './catalogue';
import { deriveSeed, createRng, type Rng } from './rng';
import { backfill } from './backfill';
import { isOpen, nextOpen } from './calendar';
import { ProductBook } from './product-book';
import { productStatus } from './status';
import { candlesSince, lastTicks, maintenanceList, pruneTicks } from './tape.repo';
import { createTapeWriter } from './tape-writer';

export interface FeedOptions {
  db: Db;
  bus: Bus;
  catalogue: readonly ProductSpec[];
  seed: number;
  ticksPerSecond: number;
  backfillHours: number;
  retentionHours: number;
  log?: Logger;
  /** Injected clock (tests). */
  now?: () => number;
  /** How often the tape writer flushes (ms). */
  flushMs?: number;
  /** Loop granularity; ticks are scheduled individually with jitter. */
  loopMs?: number;
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
  const writer = createTapeWriter(o.db, { log: o.log, flushMs: o.flushMs });
  const maintenance = await maintenanceList(o.db);
  const last = await lastTicks(o.db);

  const books = new Map<string, ProductBook>();
  const jitter: Rng = createRng(deriveSeed(o.seed, 'jitter'));
  for (const spec of o.catalogue) {
    const start = now();
    const history = await candlesSince(o.db, spec.id, start - DAY);
    const book = new ProductBook(spec, o.seed, last.get(spec.id) ?? null, history);
    const from =
      book.lastTs === null
        ? firstBackfillStart(spec, start, o.backfillHours)
        : Math.max(book.lastTs, start - o.backfillHours * 3_600_000);
    if (o.backfillHours > 0 && start - from > meanInterval) {
      const made = await backfill(o.db, book, from, start, meanInterval, jitter);
      o.log?.info(
        { product: spec.id, ticks: made, from: new Date(from).toISOString() },
        'backfilled history',
      );
    }
    books.set(spec.id, book);
  }

  const statusOf = (spec: ProductSpec, ts: number) => productStatus(spec, ts, maintenance);

  const statuses = new Map<string, ProductStatus>();
  const nextTickAt = new Map<string, number>();
  for (const spec of o.catalogue) {
    statuses.set(spec.id, statusOf(spec, now()).status);
    nextTickAt.set(spec.id, now() + meanInterval * jitter.next());
  }

  const publish = (m: Parameters<Bus['publish']>[0]) =>
    o.bus
      .publish(m)
      .catch((err: unknown) => o.log?.warn({ err: (err as Error).message }, 'bus publish failed'));

  const emitTick = (book: ProductBook, ts: number) => {
    const { row, candle } = book.step(ts);
    const tick: Tick = {
      id: row.productId,
      seq: row.seq,
      ts: row.ts,
      price: unitsToPrice(row.price, book.spec.precision),
    };
    void publish({ type: 'tick', tick });
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
        last: book.lastTick(),
        stats: presentStats(book.rolling.stats(ts), spec.precision, spec.lotSize, book.priceUnits),
      };
    });
    return { ts, products };
  };

  const everySecond = () => {
    const ts = now();
    for (const spec of o.catalogue) {
      const st = statusOf(spec, ts);
      if (statuses.get(spec.id) !== st.status) {
        statuses.set(spec.id, st.status);
        void publish({ type: 'product', product: { id: spec.id, ...st } });
        o.log?.info({ product: spec.id, ...st }, 'product status changed');
      }
    }
    void publish({ type: 'market', market: state() });
  };

  const loop = () => {
    const ts = now();
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
      await unsubscribe();
      await writer.stop();
    },
  };
}
