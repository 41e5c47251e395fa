import type { CoinNetwork } from '@shared/wallet/model';

/**
 * A USDT transfer as a chain node reports it. Addresses are normalised (Ethereum's lower case,
 * TRON's base58); `txHash` is 64 lower-case hex digits without 0x on both networks.
 */
export interface ChainTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  from: string;
  to: string;
  /** In the token's base units (USDT has 6 decimals on both networks). */
  value: bigint;
}

/** What the watcher and the claim check ask of a network's node. */
export interface ChainSource {
  readonly network: CoinNetwork;
  /** The newest block's number. */
  head(): Promise<number>;
  /** The USDT contract's transfers in blocks `from`..`to` (both included), in chain order. */
  transfers(from: number, to: number): Promise<ChainTransfer[]>;
  /** The USDT transfers of one transaction; null when the node does not know the transaction. */
  transfersOf(txHash: string): Promise<ChainTransfer[] | null>;
}

/** The sources the configuration names, one per network at most. */
export type ChainSources = Partial<Record<CoinNetwork, ChainSource>>;

/** USDT's base units per minor unit of a quantity (6 decimals on chain, 2 in the app). */
export const BASE_UNITS_PER_MINOR = 10_000n;

/** The USDT quantity in minor units a transfer carries (rounded down: dust is not credited). */
export function quantityOf(value: bigint): number {
  const q = value / BASE_UNITS_PER_MINOR;
  return q > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(q);
}

/** A chain node that could not be reached or answered badly (the watcher retries next round). */
export class ChainUnavailable extends Error {
  constructor(network: CoinNetwork, cause: unknown) {
    super(`the ${network} node did not answer: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'ChainUnavailable';
  }
}
