/** Market data types shared by the simulator, the server and the client. Prices are decimal strings. */

export type ProductStatus = 'open' | 'closed' | 'maintenance';
export type ProductCategory = 'crypto' | 'forex' | 'metals' | 'energy' | 'index';

/** One price observation. `seq` grows by one per product; `ts` is epoch ms. */
export interface Tick {
  id: string;
  seq: number;
  ts: number;
  price: string;
}

/** Rolling 24-hour figures. Prices at the product's precision; volume in base units; amount in quote. */
export interface Stats24h {
  open: string;
  high: string;
  low: string;
  last: string;
  change: string;
  changePct: string;
  volume: string;
  amount: string;
}

/** One row of the conflated per-second market snapshot. */
export interface MarketSnapshotItem {
  id: string;
  price: string | null;
  changePct: string;
  high: string;
  low: string;
  volume: string;
  amount: string;
  status: ProductStatus;
}

export interface MarketSnapshot {
  ts: number;
  products: MarketSnapshotItem[];
}

export interface ProductStatusEvent {
  id: string;
  status: ProductStatus;
  opensAt?: number;
}

/** One tick of the recorded tape (GET /api/market/ticks): `qty` in lots of the product. */
export interface TapeTickDto {
  seq: number;
  ts: number;
  price: string;
  qty: number;
}

/**
 * One period of a product's provably fair live feed (GET /api/market/fairness, docs/FAIRNESS.md):
 * the commitment is public before the period begins; the secret once the period has ended and
 * every order that could depend on it has settled.
 */
export interface FairnessPeriod {
  productId: string;
  periodStart: number;
  periodEnd: number;
  /** SHA-256 of the secret, hex. */
  commitment: string;
  /** When the commitment was stored (epoch ms): before the period's first tick. */
  committedAt: number;
  /** The published model parameters the period's ticks are computed with. */
  model: {
    version: number;
    precision: number;
    tickSize: number;
    startPrice: string;
    annualVol: number;
    jumpsPerDay: number;
    typicalLots: number;
  };
  /** Where the period's ticks start from (the last tick before it and the model's state after it); null before its first tick. */
  start: { seq: number; ts: number | null; logPrice: string; logVol: string } | null;
  /** The 256-bit secret, hex, once revealed; null until then. */
  secret: string | null;
  revealedAt: number | null;
}
