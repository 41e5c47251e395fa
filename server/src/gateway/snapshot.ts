import type { MarketState } from '@shared/bus';
import type { MarketSnapshot } from '@shared/market/model';

/** The conflated per-second `market` event, from the simulator's market state. */
export function toMarketSnapshot(state: MarketState): MarketSnapshot {
  return {
    ts: state.ts,
    products: state.products.map((p) => ({
      id: p.id,
      price: p.last?.price ?? null,
      changePct: p.stats.changePct,
      high: p.stats.high,
      low: p.stats.low,
      volume: p.stats.volume,
      amount: p.stats.amount,
      status: p.status,
    })),
  };
}
