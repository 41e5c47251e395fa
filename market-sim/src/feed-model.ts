import type { ProductSpec } from './catalogue';
import { deriveSeed, type Rng } from './rng';
import { backfill, coarseHistory } from './backfill';
import { isOpen, nextOpen } from './calendar';
import { replayTicks } from './fairness';
import { periodAt, ticksAfter } from './fairness.repo';
import { createPriceModel, type PriceModel } from './model';
import { ProductBook } from './product-book';
import { candlesSince, type TapeRow } from './tape.repo';
import type { FeedOptions } from './feed-options';

/** Each product's price model and book, resumed from the tape when the feed starts. */

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
/** How the products resume: the same for each of them. */
export interface ResumeOptions {
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
export async function resumeBook(
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
