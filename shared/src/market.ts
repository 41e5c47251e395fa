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
