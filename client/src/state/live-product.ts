import type { MarketSnapshotItem, ProductStatus, ProductStatusEvent } from '@shared/market/model';
import type { Product } from '@shared/product';
import { rateToBp } from '@shared/rates';

/** A product as the screens show it: the REST record brought up to date by the live feed. */
export interface LiveProduct {
  id: string;
  name: string;
  category: Product['category'];
  precision: number;
  status: ProductStatus;
  /** When a closed or maintained product opens again (epoch ms), when known. */
  opensAt?: number;
  /** Latest price; null before the product's first tick. */
  price: string | null;
  changePct: string;
  high: string;
  low: string;
  volume: string;
  amount: string;
  /** The best earnings rate over the product's durations ("0.90"), null without any. */
  bestRate: string | null;
}

/** The highest rate of a duration ladder ("up to 90 %"), compared exactly in basis points. */
export function bestRate(durations: readonly { rate: string }[]): string | null {
  let best: string | null = null;
  for (const { rate } of durations)
    if (best === null || rateToBp(rate) > rateToBp(best)) best = rate;
  return best;
}

/**
 * Merges the three sources of a product's state. The 1 s snapshot is the running truth for
 * price, stats and status; the REST record fills in until the first snapshot; the opening time
 * comes from a `product` event or the REST record, whichever describes the current status (an
 * opening time left over from an earlier closure must not be shown).
 */
export function mergeLive(
  product: Product,
  item?: MarketSnapshotItem,
  statusEvent?: ProductStatusEvent,
): LiveProduct {
  const status = item?.status ?? statusEvent?.status ?? product.status;
  let opensAt: number | undefined;
  if (status !== 'open') {
    if (statusEvent?.status === status && statusEvent.opensAt !== undefined) {
      opensAt = statusEvent.opensAt;
    } else if (product.status === status) {
      opensAt = product.opensAt;
    }
  }
  const stats = product.stats24h;
  return {
    id: product.id,
    name: product.name,
    category: product.category,
    precision: product.precision,
    status,
    opensAt,
    price: item?.price ?? product.last?.price ?? null,
    changePct: item?.changePct ?? stats.changePct,
    high: item?.high ?? stats.high,
    low: item?.low ?? stats.low,
    volume: item?.volume ?? stats.volume,
    amount: item?.amount ?? stats.amount,
    bestRate: bestRate(product.durations),
  };
}
