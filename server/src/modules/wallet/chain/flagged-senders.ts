import type { z } from 'zod';
import type { flaggedSenderDto } from '@shared/contract/answers';
import type { CoinNetwork } from '@shared/wallet/model';
import type { Queryable } from '@infra/db';

type FlaggedSender = z.infer<typeof flaggedSenderDto>;
interface Row {
  network: CoinNetwork;
  address: string;
  reason: string;
  created_at: Date;
}
const present = (r: Row): FlaggedSender => ({
  network: r.network,
  address: r.address,
  reason: r.reason,
  createdAt: r.created_at.getTime(),
});

/**
 * Senders the operators flagged (`flagged_senders`): the watcher holds their transfers for a
 * review instead of crediting them by themselves. Flagging again replaces the reason.
 */
export const flaggedSenders = {
  async list(db: Queryable): Promise<FlaggedSender[]> {
    const { rows } = await db.query<Row>(
      'SELECT network, address, reason, created_at FROM flagged_senders ORDER BY created_at DESC',
    );
    return rows.map(present);
  },
  async flag(
    db: Queryable,
    f: { network: CoinNetwork; address: string; reason: string },
  ): Promise<FlaggedSender> {
    const { rows } = await db.query<Row>(
      `INSERT INTO flagged_senders (network, address, reason) VALUES ($1, $2, $3)
       ON CONFLICT (network, address) DO UPDATE SET reason = EXCLUDED.reason
       RETURNING network, address, reason, created_at`,
      [f.network, f.address, f.reason],
    );
    return present(rows[0]!);
  },
  /** True when the sender was flagged. */
  async unflag(db: Queryable, network: CoinNetwork, address: string): Promise<boolean> {
    const { rowCount } = await db.query(
      'DELETE FROM flagged_senders WHERE network = $1 AND address = $2',
      [network, network === 'ERC20' ? address.toLowerCase() : address],
    );
    return (rowCount ?? 0) > 0;
  },
};
