import type { BusMessage, BusMessageOf, BusMessageType } from '@shared/bus';

export type BusHandler<T extends BusMessageType> = (message: BusMessageOf<T>) => void;

/**
 * Publish/subscribe of typed messages, one topic per message type. Delivery is at most once and
 * in publish order per topic; a subscriber that is away misses what was published meanwhile.
 */
export interface Bus {
  readonly kind: 'memory' | 'redis';
  publish(message: BusMessage): Promise<void>;
  /** Returns a function that removes this handler. */
  subscribe<T extends BusMessageType>(
    type: T,
    handler: BusHandler<T>,
  ): Promise<() => Promise<void>>;
  /** True when the transport is connected (always for in-process). */
  ready(): boolean;
  close(): Promise<void>;
}
