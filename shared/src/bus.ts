import type { ProductStatus, ProductStatusEvent, Stats24h, Tick } from './market/model';

/** What the simulator knows of one product, published once per second. */
export interface ProductState {
  id: string;
  status: ProductStatus;
  opensAt?: number;
  last: Tick | null;
  stats: Stats24h;
  /**
   * The largest gap between this product's ticks over the last hour while it was open (ms), from
   * the simulator that leads; null when it has measured none (operators' dashboard).
   */
  feedGapMaxMs?: number | null;
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
  | { type: 'maintenance'; id: string; on: boolean; opensAt?: number }
  | { type: 'process'; report: ProcessReport }
  /** Orders were placed (at `placed`, the sender's clock): settlement workers look (settlement-wake.ts). */
  | { type: 'orders'; placed: number }
  /**
   * Someone needs the tape current now: a gateway with sockets, a settlement worker whose
   * decision waits on the tape, an api whose sale waits for its tick. Without it for a while the simulator writes (and so publishes) at
   * its rest cadence, TAPE_REST_FLUSH_MS (server/src/platform/tape-demand.ts).
   */
  | { type: 'tape-wanted'; by: 'gateway' | 'worker' | 'api' };

/**
 * What a process says of itself every few seconds (server/src/platform/process-reports.ts), read
 * by the operators' dashboard: a gateway its sockets and the ticks it hears, a settling process
 * its settlement lag over the last minute.
 */
export interface ProcessReport {
  /** host:pid, unique among the running processes. */
  id: string;
  role: 'all' | 'api' | 'gateway' | 'worker';
  /** When it was sent (ms since the epoch, the sender's clock). */
  at: number;
  gateway?: { sockets: number; ticksPerSecond: number };
  settlement?: { settledLastMinute: number; lagP50Ms: number; lagP99Ms: number };
}

export type BusMessageType = BusMessage['type'];
export type BusMessageOf<T extends BusMessageType> = Extract<BusMessage, { type: T }>;
