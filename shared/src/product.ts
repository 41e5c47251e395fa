import type { ProductCategory, ProductStatus, Stats24h, Tick } from './market';

/** One rung of a product's duration ladder: seconds and the earnings rate ("0.85" = 85 %). */
export interface DurationRate {
  seconds: number;
  rate: string;
}

/** The product DTO of API.md. Prices are decimal strings at `precision` decimals. */
export interface Product {
  id: string;
  name: string;
  category: ProductCategory;
  precision: number;
  status: ProductStatus;
  opensAt?: number;
  durations: DurationRate[];
  minStake: number;
  maxStake: number;
  last: Pick<Tick, 'seq' | 'ts' | 'price'> | null;
  stats24h: Stats24h;
}

/** Chart intervals and their length in ms. */
export const intervalMs = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
} as const;

export type Interval = keyof typeof intervalMs;
export const intervals = Object.keys(intervalMs) as Interval[];

/** A candle on the wire: `t` is the bucket start (epoch ms), prices are decimal strings, `v` base volume. */
export interface Candle {
  t: number;
  o: string;
  h: string;
  l: string;
  c: string;
  v: string;
}
