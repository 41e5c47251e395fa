import { depositLimits } from '@shared/wallet/model';
import type { Db, Queryable } from '@infra/db';
import type { Logger } from '@infra/logger';
import type { UserEvents } from '@server/platform/user-events';
import { announceMessage, type MessageAnnouncement } from '../../content/system-messages';
import { announceDeposit, convertAtRate, creditDeposit } from '../deposit.service';
import { depositColumns, type DepositRow } from '../deposit.repo';
import type { AccountSummaries } from '../summary';
import { ownersOf } from './deposit-addresses';
import { quantityOf, type ChainSource, type ChainTransfer } from './source';

export interface WatcherOptions {
  db: Db;
  source: ChainSource;
  /** Blocks a transfer needs (its own included) before it is credited. */
  confirmations: number;
  /** Where a watcher with no cursor begins; the confirmed head when it first runs by default. */
  startBlock?: number;
  /** Blocks read in one request. */
  range: number;
  /** Deposits above this many minor units wait for an operator. */
  autoCreditMax: number;
  usdtRate: string;
  userEvents: UserEvents;
  summaries: Pick<AccountSummaries, 'publish'>;
  /** Inside each round's transaction: throws unless this watcher still holds its lease. */
  fence?: (tx: Queryable) => Promise<void>;
  log?: Logger;
}

/** What one round did: what the metrics count and the tests look at. */
export interface Round {
  head: number;
  /** The blocks read, or null when there was nothing new to read. */
  read: { from: number; to: number } | null;
  /** The first block not yet final after the round. */
  nextBlock: number;
  seen: number;
  credited: number;
  held: number;
  dropped: number;
  /** Deposits still waiting for confirmations. */
  confirming: number;
}

const channelOf = (s: ChainSource) => (s.network === 'ERC20' ? 'usdt-erc20' : 'usdt-trc20');

/** Where the network's watcher reads from: its cursor, created at its start block at first. */
async function readCursor(o: WatcherOptions, head: number): Promise<number> {
  const network = o.source.network;
  const { rows } = await o.db.query<{ next_block: string }>(
    'SELECT next_block FROM chain_cursors WHERE network = $1',
    [network],
  );
  if (rows[0]) return Number(rows[0].next_block);
  const start = o.startBlock ?? Math.max(0, head - o.confirmations + 1);
  await o.db.query(
    `INSERT INTO chain_cursors (network, next_block, head) VALUES ($1, $2, $3)
     ON CONFLICT (network) DO NOTHING`,
    [network, start, head],
  );
  return start;
}

/** Which of `senders` an operator flagged on the network: their transfers wait for review. */
async function flaggedAmong(tx: Queryable, network: string, senders: string[]) {
  const { rows } = await tx.query<{ address: string }>(
    'SELECT address FROM flagged_senders WHERE network = $1 AND address = ANY($2::text[])',
    [network, senders],
  );
  return new Set(rows.map((r) => r.address));
}

/** Records a transfer, or refreshes one recorded; null when a claim already holds it. */
async function recordTransfer(
  tx: Queryable,
  o: WatcherOptions,
  t: ChainTransfer,
  userId: number,
  confirmations: number,
): Promise<DepositRow | null> {
  const network = o.source.network;
  const quantity = quantityOf(t.value);
  const { rows } = await tx.query<DepositRow>(
    `INSERT INTO deposits AS d (user_id, channel, amount, quantity, rate, tx_id, source, tx_hash,
       log_index, block_number, block_hash, from_address, to_address, confirmations,
       required_confirmations, status)
     VALUES ($1, $2, $3, $4, $5, $6, 'chain', $7, $8, $9, $10, $11, $12, $13, $14, 'confirming')
     ON CONFLICT (tx_hash, coalesce(log_index, -1))
       WHERE tx_hash IS NOT NULL AND status IN ('confirming', 'pending', 'approved')
     DO UPDATE SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash,
       confirmations = EXCLUDED.confirmations
     WHERE d.status = 'confirming' AND d.source = 'chain'
     RETURNING ${depositColumns}`,
    [
      userId,
      channelOf(o.source),
      convertAtRate(quantity, o.usdtRate),
      quantity,
      o.usdtRate,
      network === 'ERC20' ? `0x${t.txHash}` : t.txHash,
      t.txHash,
      t.logIndex,
      t.blockNumber,
      t.blockHash,
      t.from,
      t.to,
      confirmations,
      o.confirmations,
    ],
  );
  return rows[0] ?? null;
}

/** Credits a confirmed deposit (with its message), or holds it for an operator. */
async function settleDeposit(
  tx: Queryable,
  d: DepositRow,
  hold: boolean,
): Promise<{ row: DepositRow; message: MessageAnnouncement | null }> {
  const { rows } = await tx.query<DepositRow>(
    `UPDATE deposits d SET status = $2, reviewed_at = CASE WHEN $2 = 'approved' THEN now() END
     WHERE id = $1 AND status = 'confirming' RETURNING ${depositColumns}`,
    [d.id, hold ? 'pending' : 'approved'],
  );
  const row = rows[0]!;
  return { row, message: hold ? null : await creditDeposit(tx, row, 'deposit_credited') };
}

/** The blocks a round reads (`from`…`to`), the head it saw, and the last block that is final. */
interface RoundWindow {
  head: number;
  from: number;
  to: number;
  finalUpTo: number;
}

/** What a round's transaction changed, told to the users once it has committed. */
interface RoundChanges {
  changed: DepositRow[];
  messages: MessageAnnouncement[];
  seen: number;
  credited: number;
  held: number;
}

/**
 * Records each of the users' transfers, and settles those with their confirmations: credited,
 * or held above the auto-credit limit, below the deposit minimum, or from a flagged sender.
 * Returns the transfers still on the chain (`hash:logIndex`).
 */
async function settleTransfers(
  tx: Queryable,
  o: WatcherOptions,
  w: RoundWindow,
  ours: ChainTransfer[],
  owners: Map<string, number>,
  out: RoundChanges,
): Promise<Set<string>> {
  const flaggedSenders = await flaggedAmong(tx, o.source.network, [
    ...new Set(ours.map((t) => t.from)),
  ]);
  const live = new Set<string>();
  for (const t of ours) {
    const row = await recordTransfer(tx, o, t, owners.get(t.to)!, w.head - t.blockNumber + 1);
    if (!row) continue; // a claim holds this transfer: its operator decides
    out.seen += 1;
    live.add(`${t.txHash}:${t.logIndex}`);
    if (t.blockNumber > w.finalUpTo) {
      out.changed.push(row);
      continue;
    }
    const hold =
      row.amount > o.autoCreditMax || row.amount < depositLimits.min || flaggedSenders.has(t.from);
    const settled = await settleDeposit(tx, row, hold);
    out.changed.push(settled.row);
    if (settled.message) out.messages.push(settled.message);
    if (hold) out.held += 1;
    else out.credited += 1;
  }
  return live;
}

/**
 * One round's transaction: under the lease's fence, the transfers recorded and settled, the
 * deposits that left the chain dropped, the cursor moved past the final blocks.
 */
async function settleRound(
  tx: Queryable,
  o: WatcherOptions,
  w: RoundWindow,
  ours: ChainTransfer[],
  owners: Map<string, number>,
  out: RoundChanges,
) {
  const network = o.source.network;
  const channel = channelOf(o.source);
  await o.fence?.(tx);
  const live = await settleTransfers(tx, o, w, ours, owners, out);
  // Confirming deposits of the blocks read that the chain no longer holds, and of blocks
  // past a head that went back: a reorganisation took them out before they were final.
  const { rows: gone } = await tx.query<DepositRow>(
    `UPDATE deposits d SET status = 'dropped', reviewed_at = now(),
       reason = 'left the chain in a reorganisation before it was confirmed'
     WHERE channel = $1 AND status = 'confirming' AND source = 'chain'
       AND ((block_number BETWEEN $2 AND $3) OR block_number > $4)
       AND NOT ((tx_hash || ':' || log_index) = ANY($5::text[]))
     RETURNING ${depositColumns}`,
    [channel, w.from, w.to, w.head, [...live]],
  );
  out.changed.push(...gone);
  const nextBlock = Math.max(w.from, Math.min(w.to, w.finalUpTo) + 1);
  await tx.query(
    'UPDATE chain_cursors SET next_block = $2, head = $3, updated_at = now() WHERE network = $1',
    [network, nextBlock, w.head],
  );
  const { rows } = await tx.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM deposits WHERE channel = $1 AND status = 'confirming'",
    [channel],
  );
  return { nextBlock, dropped: gone.length, confirming: rows[0]!.n };
}

/**
 * A network's chain watcher (docs/ARCHITECTURE.md, Chain watcher). Each round reads the USDT
 * transfers of every block not yet final (from the cursor to the head, `range` at a time), and in
 * one transaction:
 * - records each transfer to a user's address as a `confirming` deposit, once per (hash, log
 *   index), or refreshes its block and confirmations;
 * - drops the confirming deposits of the blocks read that the chain no longer holds (a
 *   reorganisation shallower than the confirmation depth): nothing was credited for them;
 * - credits each transfer with its confirmations through the ledger (or holds it for an operator
 *   above the auto-credit limit or from a flagged sender), exactly once: the status moves from
 *   `confirming` in the same transaction as the ledger transfer, whose ref is unique;
 * - moves the cursor past the blocks that are final.
 * A crash anywhere rolls the whole round back; the next round (or the next watcher) does it again.
 */
export function createWatcher(o: WatcherOptions) {
  const network = o.source.network;

  return {
    network,
    async round(): Promise<Round> {
      const head = await o.source.head();
      const from = await readCursor(o, head);
      const to = Math.min(head, from + o.range - 1);
      const transfers = from <= to ? await o.source.transfers(from, to) : [];
      const owners = await ownersOf(o.db, network, [...new Set(transfers.map((t) => t.to))]);
      const ours = transfers.filter((t) => owners.has(t.to) && quantityOf(t.value) > 0);
      const window: RoundWindow = { head, from, to, finalUpTo: head - o.confirmations + 1 };

      const out: RoundChanges = { changed: [], messages: [], seen: 0, credited: 0, held: 0 };
      const result = await o.db.transaction((tx) => settleRound(tx, o, window, ours, owners, out));

      for (const d of out.changed) announceDeposit(o.userEvents, d);
      for (const m of out.messages) announceMessage(o.userEvents, m);
      for (const userId of new Set(out.messages.map((m) => m.userId)))
        await o.summaries.publish(userId);
      const { seen, credited, held } = out;
      if (credited || held || result.dropped)
        o.log?.info(
          { network, head, credited, held, dropped: result.dropped },
          'chain deposits settled',
        );
      return {
        head,
        read: from <= to ? { from, to } : null,
        seen,
        credited,
        held,
        ...result,
      };
    },
  };
}

export type Watcher = ReturnType<typeof createWatcher>;
