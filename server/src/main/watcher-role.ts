import type { Config } from '@server/config';
import type { Db } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { Metrics } from '@server/platform/metrics';
import type { UserEvents } from '@server/platform/user-events';
import type { AccountSummaries } from '@server/modules/wallet/summary';
import type { ChainSource, ChainSources } from '@server/modules/wallet/chain/source';
import { createWatcher, type Round } from '@server/modules/wallet/chain/watcher';
import { loopWatcher } from '@server/modules/wallet/chain/watcher.loop';
import { holdLease } from '@sim/index';

export interface WatchersDeps {
  config: Config;
  db: Db;
  sources: ChainSources;
  userEvents: UserEvents;
  summaries: Pick<AccountSummaries, 'publish'>;
  metrics?: Metrics;
  log?: Logger;
  onRound?: (r: Round) => void;
}

/**
 * A watcher per configured network, each under its network's lease (`watcher_lease`): any number
 * of watcher processes may run, one follows each network and the others stand by, taking over
 * a lease TTL after the active one stops renewing.
 */
export function startWatchers(d: WatchersDeps) {
  const { config } = d;
  const settings = {
    ERC20: {
      confirmations: config.ERC20_CONFIRMATIONS,
      startBlock: config.ETH_START_BLOCK,
      range: config.ETH_LOG_RANGE,
    },
    // TronGrid's events are read by block time, 200 to a page: ranges of 100 blocks (5 min).
    TRC20: {
      confirmations: config.TRC20_CONFIRMATIONS,
      startBlock: config.TRON_START_BLOCK,
      range: 100,
    },
  };
  const configured = Object.values(d.sources).filter((s): s is ChainSource => s !== undefined);
  const leases = configured.map((source) => {
    const network = source.network;
    d.metrics?.chainLeading.set({ network }, 0);
    return holdLease(
      {
        db: d.db,
        log: d.log,
        row: { table: 'watcher_lease', id: network, role: `${network} watcher` },
        ttlMs: Math.max(3000, config.CHAIN_POLL_MS * 3),
        pollMs: Math.max(500, Math.min(config.CHAIN_POLL_MS, 2000)),
        onChange: (state) => d.metrics?.chainLeading.set({ network }, state === 'leader' ? 1 : 0),
      },
      (lease) => {
        const watcher = createWatcher({
          db: d.db,
          source,
          ...settings[network],
          autoCreditMax: config.CHAIN_AUTO_CREDIT_MAX,
          usdtRate: config.USDT_RATE,
          userEvents: d.userEvents,
          summaries: d.summaries,
          fence: (tx) => lease.fence(tx),
          log: d.log,
        });
        return Promise.resolve(
          loopWatcher(watcher, {
            pollMs: config.CHAIN_POLL_MS,
            metrics: d.metrics,
            log: d.log,
            onRound: d.onRound,
          }),
        );
      },
    );
  });
  return {
    networks: Object.keys(d.sources),
    async stop() {
      await Promise.all(leases.map((l) => l.stop()));
    },
  };
}
