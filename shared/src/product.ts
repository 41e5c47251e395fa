import type { z } from 'zod';
import type { candleDto, productDto } from './contract/answers';

/** The product DTO of API.md. Prices are decimal strings at `precision` decimals. */
export type Product = z.infer<typeof productDto>;
/** One rung of a product's duration ladder: seconds and the earnings rate ("0.85" = 85 %). */
export type DurationRate = Product['durations'][number];

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
export type Candle = z.infer<typeof candleDto>;
