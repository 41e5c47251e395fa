import { aggregateTicks } from '@shared/aggregate';
import { priceToUnits, unitsToPrice } from '@shared/price';
import type { Candle } from '@shared/product';
import type { TapeTick } from '@client/api/market';

/**
 * Candles shorter than the server's shortest (1 minute), built in the browser from the public
 * tape, which holds every tick: a 30 s trade reads on 5 s candles (issue 37). The live candle
 * then grows from the live ticks as any other (chart-feed.ts, candleFeed).
 */

/** Built candles shown at first: 120 of 5 s are 10 minutes, of 15 s half an hour. */
export const TICK_CANDLES = 120;
/** The most the tape endpoint answers per call. */
const TAPE_PAGE = 1000;

export type TapePageFetch = (window: {
  from: number;
  to: number;
  limit: number;
}) => Promise<TapeTick[]>;

/**
 * The tape between `from` and `to`, page after page (each oldest first, at most TAPE_PAGE):
 * the next page starts at the last tick's time, and ticks already read are dropped by `seq`.
 */
export async function loadTape(fetchPage: TapePageFetch, from: number, to: number) {
  const ticks: TapeTick[] = [];
  let since = from;
  for (let page = 0; page < 20; page++) {
    const batch = await fetchPage({ from: since, to, limit: TAPE_PAGE });
    const lastSeq = ticks.at(-1)?.seq ?? -1;
    ticks.push(...batch.filter((t) => t.seq > lastSeq));
    const last = batch.at(-1);
    if (batch.length < TAPE_PAGE || !last || last.ts <= since) break;
    since = last.ts;
  }
  return ticks;
}

/**
 * Candles of `intervalMs` from ticks, oldest first as the REST candles are. Their volume is the
 * tick count (tick volume, as forex charts show it): the live candle grows by one per tick
 * (chart-feed.ts, `tickVolume`), where a quantity would stop at the history's edge, live ticks
 * carrying none.
 */
export function candlesFromTape(
  ticks: readonly TapeTick[],
  intervalMs: number,
  precision: number,
): Candle[] {
  const units = [];
  for (const t of [...ticks].sort((a, b) => a.seq - b.seq)) {
    try {
      units.push({ ts: t.ts, price: priceToUnits(t.price, precision), qty: 0 });
    } catch {
      // A malformed price must not take the chart down: that tick is left out.
    }
  }
  const price = (u: number) => unitsToPrice(u, precision);
  return aggregateTicks(units, intervalMs).map((c) => ({
    t: c.t,
    o: price(c.o),
    h: price(c.h),
    l: price(c.l),
    c: price(c.c),
    v: String(c.n),
  }));
}

/** The built candles of the last TICK_CANDLES intervals up to `now`. */
export async function loadTickCandles(
  fetchPage: TapePageFetch,
  intervalMs: number,
  precision: number,
  now: number,
): Promise<Candle[]> {
  const from = Math.floor((now - TICK_CANDLES * intervalMs) / intervalMs) * intervalMs;
  return candlesFromTape(await loadTape(fetchPage, from, now), intervalMs, precision);
}
