import type { DepositChannelId, DepositStatus } from '@shared/wallet/model';
import type { Queryable } from '@infra/db';
import type { PageRequest } from '@server/platform/paging';
import type { ChainTransfer } from './chain/source';

export interface DepositRow {
  id: number;
  user_id: number;
  channel: DepositChannelId;
  amount: number;
  quantity: number | null;
  rate: string | null;
  payer_bank: string | null;
  payer_card: string | null;
  payer_name: string | null;
  remark: string | null;
  screenshot_id: string | null;
  tx_id: string | null;
  resubmitted_from: number | null;
  source: 'claim' | 'chain';
  /** The transaction's hash in the form both networks share (64 hex digits, no 0x). */
  tx_hash: string | null;
  log_index: number | null;
  block_number: string | null;
  block_hash: string | null;
  from_address: string | null;
  to_address: string | null;
  confirmations: number | null;
  required_confirmations: number | null;
  status: DepositStatus;
  reason: string | null;
  created_at: Date;
  reviewed_at: Date | null;
  /** The user's account name, on rows read for operators. */
  user_account?: string;
}

export const depositColumns =
  'd.id, d.user_id, d.channel, d.amount, d.quantity, d.rate, d.payer_bank, d.payer_card, d.payer_name, d.remark, d.screenshot_id, d.tx_id, d.resubmitted_from, d.source, d.tx_hash, d.log_index, d.block_number, d.block_hash, d.from_address, d.to_address, d.confirmations, d.required_confirmations, d.status, d.reason, d.created_at, d.reviewed_at';
const columns = depositColumns;

/** A USDT transfer's facts as the chain gave them, with what they come to. */
export type ChainFacts = Omit<ChainTransfer, 'value'> & {
  quantity: number;
  confirmations: number;
  required: number;
};

export async function insertDeposit(
  db: Queryable,
  d: {
    userId: number;
    /** A USDT claim's transfer as read from the chain. */
    chain?: ChainFacts;
    channel: DepositChannelId;
    amount: number;
    quantity?: number;
    rate?: string;
    payerBank?: string;
    payerCard?: string;
    payerName?: string;
    remark?: string;
    screenshotId: string | null;
    txId?: string;
    resubmittedFrom?: number;
  },
): Promise<DepositRow> {
  const { rows } = await db.query<DepositRow>(
    `INSERT INTO deposits AS d (user_id, channel, amount, quantity, rate, payer_bank, payer_card, payer_name, remark, screenshot_id, tx_id, resubmitted_from,
       tx_hash, log_index, block_number, block_hash, from_address, to_address, confirmations, required_confirmations)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
     RETURNING ${columns}`,
    [
      d.userId,
      d.channel,
      d.amount,
      d.quantity ?? null,
      d.rate ?? null,
      d.payerBank ?? null,
      d.payerCard ?? null,
      d.payerName ?? null,
      d.remark ?? null,
      d.screenshotId,
      d.txId ?? null,
      d.resubmittedFrom ?? null,
      d.chain?.txHash ?? null,
      d.chain?.logIndex ?? null,
      d.chain?.blockNumber ?? null,
      d.chain?.blockHash ?? null,
      d.chain?.from ?? null,
      d.chain?.to ?? null,
      d.chain?.confirmations ?? null,
      d.chain?.required ?? null,
    ],
  );
  return rows[0]!;
}

/**
 * Locks the user's row (`FOR NO KEY UPDATE`: rows that merely refer to the user are not held up)
 * and counts their deposits under review; deposits made under the lock are therefore counted by
 * the next one.
 */
export async function lockPendingDeposits(db: Queryable, userId: number): Promise<number> {
  await db.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM deposits WHERE user_id = $1 AND status = 'pending' AND source = 'claim'",
    [userId],
  );
  return rows[0]!.n;
}

/**
 * Whether a claimed transfer (its transaction's hash, in the form both networks share, and its log
 * index) is taken for `userId`: a deposit being confirmed, under review or approved holds it, or
 * another user's rejected claim does (a rejected transfer is free again for its own claimant
 * only). A legacy claim without a log index holds its whole transaction.
 */
export async function transferInUse(
  db: Queryable,
  t: { txHash: string; logIndex: number },
  userId: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM deposits WHERE tx_hash = $1 AND (log_index = $2 OR log_index IS NULL)
       AND (status IN ('confirming', 'pending', 'approved') OR (status = 'rejected' AND user_id <> $3))
     LIMIT 1`,
    [t.txHash, t.logIndex, userId],
  );
  return rows.length > 0;
}

/**
 * The deposit a resubmission corrects, locked until the new one is written: its owner, status,
 * and whether a resubmission of it exists already.
 */
export async function lockResubmitted(
  db: Queryable,
  id: number,
): Promise<{ user_id: number; status: DepositStatus; resubmitted: boolean } | null> {
  const { rows } = await db.query<{ user_id: number; status: DepositStatus }>(
    'SELECT user_id, status FROM deposits WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!rows[0]) return null;
  const again = await db.query('SELECT 1 FROM deposits WHERE resubmitted_from = $1 LIMIT 1', [id]);
  return { ...rows[0], resubmitted: again.rows.length > 0 };
}

export async function userDeposits(
  db: Queryable,
  userId: number,
  q: PageRequest & { channel?: DepositChannelId },
): Promise<DepositRow[]> {
  const { rows } = await db.query<DepositRow>(
    `SELECT ${columns} FROM deposits d WHERE d.user_id = $1 AND ($2::bigint IS NULL OR d.id < $2)
       AND ($4::text IS NULL OR d.channel = $4)
     ORDER BY d.id DESC LIMIT $3`,
    [userId, q.cursor ?? null, q.limit + 1, q.channel ?? null],
  );
  return rows;
}

export async function listDeposits(
  db: Queryable,
  q: PageRequest & { status?: DepositStatus },
): Promise<DepositRow[]> {
  const { rows } = await db.query<DepositRow>(
    `SELECT ${columns}, u.account AS user_account FROM deposits d JOIN users u ON u.id = d.user_id
     WHERE ($1::text IS NULL OR d.status = $1) AND ($2::bigint IS NULL OR d.id < $2)
     ORDER BY d.id DESC LIMIT $3`,
    [q.status ?? null, q.cursor ?? null, q.limit + 1],
  );
  return rows;
}

/**
 * Moves a pending deposit to its review outcome. `status = 'pending'` in the condition makes two
 * concurrent reviews race for the row: exactly one gets it back, the other gets null.
 */
export async function reviewDeposit(
  db: Queryable,
  id: number,
  to: 'approved' | 'rejected',
  reason: string | null,
): Promise<DepositRow | null> {
  const { rows } = await db.query<DepositRow>(
    `UPDATE deposits d SET status = $2, reason = $3, reviewed_at = now()
     FROM users u WHERE d.id = $1 AND d.status = 'pending' AND u.id = d.user_id
     RETURNING ${columns}, u.account AS user_account`,
    [id, to, reason],
  );
  return rows[0] ?? null;
}

export async function depositStatus(db: Queryable, id: number): Promise<DepositStatus | null> {
  const { rows } = await db.query<{ status: DepositStatus }>(
    'SELECT status FROM deposits WHERE id = $1',
    [id],
  );
  return rows[0]?.status ?? null;
}

/** How many wait for an operator's review (the console's dashboard). */
/** Pending items, of one user when `userId` is given. */
export async function countPending(db: Queryable, userId?: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM deposits WHERE status = 'pending' AND ($1::bigint IS NULL OR user_id = $1)",
    [userId ?? null],
  );
  return rows[0]?.n ?? 0;
}
