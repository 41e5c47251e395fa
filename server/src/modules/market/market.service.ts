import { bucketStart, presentCandle, presentStats, Rolling24h } from '@shared/aggregate';
import type { ProductState } from '@shared/bus';
import type { TapeTickDto, Tick } from '@shared/market/model';
import type { CandlesQuery, TicksQuery } from '@shared/market/requests';
import { unitsToPrice } from '@shared/price';
import { intervalMs, type Candle, type Interval, type Product } from '@shared/product';
import { productMatches } from '@shared/product-search';
import type { ProductSpec } from '@sim/index';
import { productStatus } from '@sim/index';
import { candlesSince, lastTicks, maintenanceList, setMaintenance } from '@sim/index';
import type { Bus } from '@infra/bus';
import type { Db } from '@infra/db';
import { notFound } from '@server/platform/http/errors';
import { selectCandles, selectTicks } from './market.repo';

export interface MarketService {
  products(q?: string): Product[];
  product(id: string): Product;
  candles(q: CandlesQuery): Promise<Candle[]>;
  ticks(q: TicksQuery): Promise<TapeTickDto[]>;
  /** The freshest tick this process has seen for a product (from the bus), or null. */
  latestTick(id: string): Tick | null;
  /** Returns the spec of a product or throws NOT_FOUND. */
  spec(id: string): ProductSpec;
  /**
   * Resolves once this process has seen (on the bus) a tick of the product later than `afterTs`,
   * or after `timeoutMs`: a wake-up for whoever then reads the tape (a sale, sale.ts).
   */
  tickAfter(id: string, afterTs: number, timeoutMs: number): Promise<void>;
  /** Whether the bus that brings prices is connected (false while Redis is away). */
  feedReachable(): boolean;
  /** The clock market data is read by ("now" of candles and the tape; tests pin it). */
  now(): number;
  /**
   * The largest gap between a product's ticks over the last hour while it was open (ms), as the
   * leading simulator last said; null when it has said none.
   */
  feedGap(id: string): number | null;
  /**
   * Maintenance on or off (operators): stored, so a restarted simulator reads it back, and
   * announced on the bus, so the simulator stops the product's ticks and tells every client.
   */
  setMaintenance(
    id: string,
    m: { on: true; opensAt: number | null } | { on: false },
  ): Promise<void>;
  close(): Promise<void>;
}

/**
 * Market data for the api role. Product figures come from the simulator's market state on the
 * bus (once a second) and ticks (each one); before the first state arrives they are rebuilt from
 * the tape, so a freshly started api answers at once.
 */
export async function createMarketService({
  db,
  bus,
  catalogue,
  now = Date.now,
  earlyClose = { spreadBp: 500, closesBeforeExpiryMs: 10_000 },
}: {
  db: Db;
  bus: Bus;
  catalogue: readonly ProductSpec[];
  now?: () => number;
  /** The early-close terms every product publishes with its σ (SELL_* settings). */
  earlyClose?: { spreadBp: number; closesBeforeExpiryMs: number };
}): Promise<MarketService> {
  const specs = new Map(catalogue.map((s) => [s.id, s]));
  const latest = new Map<string, Tick>();
  const waiting = new Map<string, Set<{ afterTs: number; wake: () => void }>>();
  let state: Map<string, ProductState> = await stateFromTape(db, catalogue, now());

  const offs = await Promise.all([
    bus.subscribe('market', ({ market }) => {
      state = new Map(market.products.map((p) => [p.id, p]));
    }),
    bus.subscribe('tick', ({ tick }) => {
      const prev = latest.get(tick.id);
      if (!prev || tick.seq > prev.seq) latest.set(tick.id, tick);
      for (const w of waiting.get(tick.id) ?? []) if (tick.ts > w.afterTs) w.wake();
    }),
  ]);

  const spec = (id: string) => {
    const s = specs.get(id);
    if (!s) throw notFound(`Unknown product ${id}`);
    return s;
  };

  const present = (s: ProductSpec): Product => {
    const st = state.get(s.id);
    const tick = latest.get(s.id);
    const last = tick && (!st?.last || tick.seq > st.last.seq) ? tick : (st?.last ?? null);
    return {
      id: s.id,
      name: s.name,
      category: s.category,
      precision: s.precision,
      status: st?.status ?? 'closed',
      ...(st?.opensAt ? { opensAt: st.opensAt } : {}),
      durations: s.durations,
      minStake: s.minStake,
      maxStake: s.maxStake,
      earlyClose: { annualVol: s.annualVol, ...earlyClose },
      last: last ? { seq: last.seq, ts: last.ts, price: last.price } : null,
      stats24h: st?.stats ?? presentStats(null, s.precision, s.lotSize),
    };
  };

  return {
    products(q) {
      // The client filters its list with the same function (shared/src/product-search.ts).
      return catalogue.filter((s) => productMatches(s, q ?? '')).map(present);
    },
    product: (id) => present(spec(id)),
    async candles(q) {
      const s = spec(q.product);
      const ms = intervalMs[q.interval as Interval];
      const before = q.before ?? now() + 1;
      const rows = await selectCandles(db, s.id, ms, q.limit, bucketStart(before - 1, ms) + ms);
      return rows.map((r) => presentCandle({ ...r, a: BigInt(r.a) }, s.precision, s.lotSize));
    },
    async ticks(q) {
      const s = spec(q.product);
      const to = q.to ?? now();
      const from = q.from ?? to - 5 * 60_000;
      const rows = await selectTicks(db, s.id, from, to, q.limit, q.after);
      return rows.map((r) => ({
        seq: r.seq,
        ts: r.ts,
        price: unitsToPrice(r.price, s.precision),
        qty: r.qty,
      }));
    },
    latestTick: (id) => latest.get(id) ?? state.get(id)?.last ?? null,
    tickAfter: (id, afterTs, timeoutMs) =>
      new Promise<void>((resolve) => {
        if ((latest.get(id)?.ts ?? -Infinity) > afterTs || timeoutMs <= 0) return resolve();
        const set = waiting.get(id) ?? new Set();
        waiting.set(id, set);
        const w = {
          afterTs,
          wake: () => {
            clearTimeout(timer);
            set.delete(w);
            resolve();
          },
        };
        const timer = setTimeout(w.wake, timeoutMs);
        set.add(w);
      }),
    spec,
    feedGap: (id) => state.get(id)?.feedGapMaxMs ?? null,
    feedReachable: () => bus.ready(),
    now,
    async setMaintenance(id, m) {
      await setMaintenance(db, id, m);
      await bus.publish({
        type: 'maintenance',
        id,
        on: m.on,
        ...(m.on && m.opensAt ? { opensAt: m.opensAt } : {}),
      });
    },
    async close() {
      await Promise.all(offs.map((off) => off()));
    },
  };
}

async function stateFromTape(
  db: Db,
  catalogue: readonly ProductSpec[],
  ts: number,
): Promise<Map<string, ProductState>> {
  const last = await lastTicks(db);
  const maintenance = await maintenanceList(db);
  const out = new Map<string, ProductState>();
  for (const s of catalogue) {
    const rolling = new Rolling24h();
    for (const c of await candlesSince(db, s.id, ts - 86_400_000)) rolling.pushCandle(c);
    const l = last.get(s.id);
    out.set(s.id, {
      id: s.id,
      ...productStatus(s, ts, maintenance),
      last: l
        ? { id: s.id, seq: l.seq, ts: l.ts, price: unitsToPrice(l.price, s.precision) }
        : null,
      stats: presentStats(rolling.stats(ts), s.precision, s.lotSize, l?.price),
    });
  }
  return out;
}
