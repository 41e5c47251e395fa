import type { MarketSnapshot, ProductStatusEvent, Tick } from './market';

/**
 * Every message that crosses the bus (Redis pub/sub or in-process), discriminated on `type`.
 * Handlers switch on `type` exhaustively; the lint rule `switch-exhaustiveness-check` enforces it.
 */
export type BusMessage =
  | { type: 'tick'; tick: Tick }
  | { type: 'market'; snapshot: MarketSnapshot }
  | { type: 'product'; product: ProductStatusEvent };

export type BusMessageType = BusMessage['type'];
export type BusMessageOf<T extends BusMessageType> = Extract<BusMessage, { type: T }>;

export const busMessageTypes: readonly BusMessageType[] = ['tick', 'market', 'product'];
