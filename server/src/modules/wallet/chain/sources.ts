import type { Config } from '@server/config';
import { evmSource } from './evm-source';
import type { ChainSources } from './source';
import { tronSource } from './tron-source';

/** The chain nodes the configuration names (none by default: no watcher, no claim check). */
export function chainSources(
  config: Pick<
    Config,
    'ETH_RPC_URL' | 'ETH_USDT_CONTRACT' | 'TRON_API_URL' | 'TRON_API_KEY' | 'TRON_USDT_CONTRACT'
  >,
): ChainSources {
  return {
    ...(config.ETH_RPC_URL
      ? { ERC20: evmSource({ rpcUrl: config.ETH_RPC_URL, contract: config.ETH_USDT_CONTRACT }) }
      : {}),
    ...(config.TRON_API_URL
      ? {
          TRC20: tronSource({
            apiUrl: config.TRON_API_URL,
            apiKey: config.TRON_API_KEY,
            contract: config.TRON_USDT_CONTRACT,
          }),
        }
      : {}),
  };
}
