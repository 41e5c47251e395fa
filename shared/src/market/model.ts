/** Market data types shared by the simulator, the server and the client. Prices are decimal strings. */
import type { z } from 'zod';
import type { fairnessPeriodDto, productDto, tapeTickDto } from '../contract/answers';

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
export type Stats24h = z.infer<typeof productDto>['stats24h'];

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
export type TapeTickDto = z.infer<typeof tapeTickDto>;

/**
 * One period of a product's provably fair live feed (GET /api/market/fairness, docs/FAIRNESS.md):
 * the commitment is public before the period begins; the secret once the period has ended and
 * every order that could depend on it has settled.
 */
export type FairnessPeriod = z.infer<typeof fairnessPeriodDto>;
