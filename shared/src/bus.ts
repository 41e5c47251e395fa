import type { ProductStatus, ProductStatusEvent, Stats24h, Tick } from './market';

/** What the simulator knows of one product, published once per second. */
export interface ProductState {
  id: string;
  status: ProductStatus;
  opensAt?: number;
  last: Tick | null;
  stats: Stats24h;
}

export interface MarketState {
  ts: number;
  products: ProductState[];
}

/**
 * Every message that crosses the bus (Redis pub/sub or in-process), discriminated on `type`.
 * Handlers switch on `type` exhaustively; the lint rule `switch-exhaustiveness-check` enforces it.
 */
export type BusMessage =
  | { type: 'tick'; tick: Tick }
  | { type: 'market'; market: MarketState }
  | { type: 'product'; product: ProductStatusEvent }
  | { type: 'maintenance'; id: string; on: boolean; opensAt?: number };

export type BusMessageType = BusMessage['type'];
export type BusMessageOf<T extends BusMessageType> = Extract<BusMessage, { type: T }>;
