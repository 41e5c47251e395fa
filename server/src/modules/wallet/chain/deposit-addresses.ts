import type { CoinNetwork } from '@shared/wallet/model';
import type { Queryable } from '@infra/db';
import { deriveAddress, receivingChain } from './derivation';

const networks: CoinNetwork[] = ['ERC20', 'TRC20'];

/**
 * Each user's own receiving addresses: derived at index = user id from the network's configured
 * account key the first time they are asked for, and kept (`deposit_addresses`), so a user's
 * address never changes and the watcher knows every address it must follow.
 */
export function createDepositAddresses(keys: Record<CoinNetwork, string>) {
  const chains = {
    ERC20: receivingChain(keys.ERC20),
    TRC20: receivingChain(keys.TRC20),
  };

  const read = async (db: Queryable, userId: number) => {
    const { rows } = await db.query<{ network: CoinNetwork; address: string }>(
      'SELECT network, address FROM deposit_addresses WHERE user_id = $1',
      [userId],
    );
    return new Map(rows.map((r) => [r.network, r.address]));
  };

  return {
    /** The user's address on each network, assigned on first use. */
    async of(db: Queryable, userId: number): Promise<Record<CoinNetwork, string>> {
      let known = await read(db, userId);
      const missing = networks.filter((n) => !known.has(n));
      if (missing.length) {
        for (const network of missing)
          await db.query(
            `INSERT INTO deposit_addresses (user_id, network, address, derivation_index)
             VALUES ($1, $2, $3, $1) ON CONFLICT (user_id, network) DO NOTHING`,
            [userId, network, deriveAddress(chains[network], network, userId)],
          );
        known = await read(db, userId);
      }
      return { ERC20: known.get('ERC20')!, TRC20: known.get('TRC20')! };
    },
  };
}

export type DepositAddresses = ReturnType<typeof createDepositAddresses>;

/** The owners of receiving addresses among `addresses` (normalised) on a network. */
export async function ownersOf(
  db: Queryable,
  network: CoinNetwork,
  addresses: readonly string[],
): Promise<Map<string, number>> {
  if (!addresses.length) return new Map();
  const { rows } = await db.query<{ address: string; user_id: string }>(
    'SELECT address, user_id FROM deposit_addresses WHERE network = $1 AND address = ANY($2::text[])',
    [network, addresses],
  );
  return new Map(rows.map((r) => [r.address, Number(r.user_id)]));
}
