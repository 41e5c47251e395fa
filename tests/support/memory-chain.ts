import { randomBytes } from 'node:crypto';
import type { CoinNetwork } from '@shared/wallet/model';
import {
  ChainUnavailable,
  type ChainSource,
  type ChainSources,
  type ChainTransfer,
} from '@server/modules/wallet/chain/source';

/**
 * An in-memory chain for the api's claim tests: transfers are "mined" one block each when paid.
 * The watcher and both node clients are tested against real nodes or the documented TronGrid
 * shapes (tests/chain); this stands in only where a test is about the api's rules.
 */
export interface MemoryChain extends ChainSource {
  /** Pays `units` base units (6 decimals) to `to`; returns the transaction id in its network's form. */
  pay(to: string, units: bigint, from?: string): string;
  /** Adds empty blocks. */
  mine(blocks: number): void;
  /** Makes the node unreachable (503 CHAIN_UNAVAILABLE) until set back. */
  down: boolean;
}

export function memoryChain(network: CoinNetwork): MemoryChain {
  let height = 100;
  const transfers: ChainTransfer[] = [];
  /** What a node would answer, or its failure while `down`. */
  const answer = <T>(f: () => T): Promise<T> =>
    chain.down ? Promise.reject(new ChainUnavailable(network, 'node down')) : Promise.resolve(f());
  const chain: MemoryChain = {
    network,
    down: false,
    pay(to, units, from) {
      height += 1;
      const txHash = randomBytes(32).toString('hex');
      transfers.push({
        txHash,
        logIndex: 0,
        blockNumber: height,
        blockHash: randomBytes(32).toString('hex'),
        from:
          from ??
          (network === 'ERC20' ? `0x${'ab'.repeat(20)}` : 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8'),
        to: network === 'ERC20' ? to.toLowerCase() : to,
        value: units,
      });
      return network === 'ERC20' ? `0x${txHash}` : txHash;
    },
    mine(blocks) {
      height += blocks;
    },
    head: () => answer(() => height),
    transfers: (from, to) =>
      answer(() => transfers.filter((t) => t.blockNumber >= from && t.blockNumber <= to)),
    transfersOf(txHash) {
      const plain = txHash.toLowerCase().replace(/^0x/, '');
      return answer(() => {
        const found = transfers.filter((t) => t.txHash === plain);
        return found.length ? found : null;
      });
    },
  };
  return chain;
}

/** A memory chain for each network, as `buildTestApi` passes them to the api. */
export function memoryChains(): Required<ChainSources> & {
  ERC20: MemoryChain;
  TRC20: MemoryChain;
} {
  return { ERC20: memoryChain('ERC20'), TRC20: memoryChain('TRC20') };
}
