import {
  createPublicClient,
  http,
  parseAbiItem,
  parseEventLogs,
  TransactionReceiptNotFoundError,
  type Log,
} from 'viem';
import { ChainUnavailable, type ChainSource, type ChainTransfer } from './source';

const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

const plainHash = (h: string) => h.toLowerCase().replace(/^0x/, '');

/**
 * USDT on Ethereum through any JSON-RPC node (`ETH_RPC_URL`): the contract's `Transfer` logs by
 * block range (`eth_getLogs`), the head (`eth_blockNumber`), and one transaction's logs from its
 * receipt for a claim.
 */
export function evmSource(o: {
  rpcUrl: string;
  contract: string;
  timeoutMs?: number;
}): ChainSource {
  const client = createPublicClient({
    transport: http(o.rpcUrl, { timeout: o.timeoutMs ?? 10_000, retryCount: 1 }),
  });
  const contract = o.contract.toLowerCase() as `0x${string}`;

  const toTransfer = (log: Log<bigint, number, false, typeof transferEvent>): ChainTransfer => ({
    txHash: plainHash(log.transactionHash),
    logIndex: log.logIndex,
    blockNumber: Number(log.blockNumber),
    blockHash: plainHash(log.blockHash),
    from: log.args.from!.toLowerCase(),
    to: log.args.to!.toLowerCase(),
    value: log.args.value!,
  });

  const call = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (err) {
      throw new ChainUnavailable('ERC20', err);
    }
  };

  return {
    network: 'ERC20',
    head: () => call(async () => Number(await client.getBlockNumber({ cacheTime: 0 }))),
    transfers: (from, to) =>
      call(async () => {
        const logs = await client.getLogs({
          address: contract,
          event: transferEvent,
          fromBlock: BigInt(from),
          toBlock: BigInt(to),
          strict: true,
        });
        return logs.map((l) => toTransfer(l as never));
      }),
    async transfersOf(txHash) {
      let receipt;
      try {
        receipt = await client.getTransactionReceipt({ hash: `0x${plainHash(txHash)}` });
      } catch (err) {
        if (err instanceof TransactionReceiptNotFoundError) return null;
        throw new ChainUnavailable('ERC20', err);
      }
      if (receipt.status !== 'success') return [];
      const ours = receipt.logs.filter((l) => l.address.toLowerCase() === contract);
      return parseEventLogs({ abi: [transferEvent], logs: ours, strict: true }).map((l) =>
        toTransfer(l as never),
      );
    },
  };
}
