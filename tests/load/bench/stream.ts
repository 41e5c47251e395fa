import type { MarketState, ProductState } from '@shared/bus';
import type { Tick } from '@shared/market/model';
import { defaultCatalogue } from '@sim/catalogue';

/**
 * The benchmark's market data: a deterministic random walk for one product and a market state of
 * the whole catalogue, shaped like the simulator's (same types, same field sizes). Every server in
 * a run gets the same stream, so every subscriber receives the same bytes.
 */

export const BENCH_PRODUCT = 'BTCUSDT';

/** Epoch ms with µs resolution: latency is measured below the millisecond the sim's ts carries. */
export const preciseNow = (): number =>
  Math.round((performance.timeOrigin + performance.now()) * 1000) / 1000;

export interface TickStream {
  /** The next tick of the bench product, stamped `ts`. */
  tick(ts: number): Tick;
  /** The simulator's per-second market state (the gateway turns it into the `market` snapshot). */
  market(ts: number): MarketState;
}

export function createTickStream(seed = 20260101): TickStream {
  let s = seed >>> 0 || 1;
  const rand = () => {
    // xorshift32: enough for a price walk, and the same sequence in every run.
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  const spec = defaultCatalogue.find((p) => p.id === BENCH_PRODUCT)!;
  const scale = 10 ** spec.precision;
  let units = Math.round(Number(spec.startPrice) * scale);
  let seq = 0;
  let last: Tick | null = null;
  const price = (u: number, precision: number) => (u / 10 ** precision).toFixed(precision);

  return {
    tick(ts) {
      units = Math.max(1, units + Math.round((rand() - 0.5) * 20));
      last = { id: BENCH_PRODUCT, seq: ++seq, ts, price: price(units, spec.precision) };
      return last;
    },
    market(ts) {
      const products: ProductState[] = defaultCatalogue.map((p) => {
        const start = Number(p.startPrice);
        const fmt = (x: number) => x.toFixed(p.precision);
        const isBench = p.id === BENCH_PRODUCT;
        return {
          id: p.id,
          status: 'open',
          last: isBench ? last : { id: p.id, seq: 1000, ts, price: fmt(start) },
          stats: {
            open: fmt(start * 0.99),
            high: fmt(start * 1.02),
            low: fmt(start * 0.97),
            last: isBench && last ? last.price : fmt(start),
            change: fmt(start * 0.01),
            changePct: '1.01',
            volume: '12345.6789',
            amount: '827654321.12',
          },
        };
      });
      return { ts: Math.floor(ts), products };
    },
  };
}
