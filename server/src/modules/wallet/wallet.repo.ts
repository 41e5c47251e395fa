import type { TransferKind } from '@shared/wallet/model';
import type { Queryable } from '@infra/db';
import type { PageRequest } from '@server/platform/paging';

/** Credit scores by user id (0 for an unknown id). */
export async function creditScores(
  db: Queryable,
  userIds: readonly number[],
): Promise<Map<number, number>> {
  const { rows } = await db.query<{ id: number; credit_score: number }>(
    'SELECT id, credit_score FROM users WHERE id = ANY($1::bigint[])',
    [userIds],
  );
  const out = new Map(userIds.map((id) => [id, 0]));
  for (const r of rows) out.set(Number(r.id), r.credit_score);
  return out;
}

export interface FundRecordRow {
  id: number;
  kind: TransferKind;
  amount: number;
  balance_after: number;
  created_at: Date;
  ref: string | null;
}

/** Entries of the user's available account with their transfer's kind, newest first. */
export async function fundRecords(
  db: Queryable,
  userId: number,
  q: PageRequest & { type?: TransferKind },
): Promise<FundRecordRow[]> {
  const { rows } = await db.query<FundRecordRow>(
    `SELECT e.id, t.kind, e.amount, e.balance_after, t.created_at, t.ref
     FROM ledger_accounts a
     JOIN entries e ON e.account_id = a.id
     JOIN transfers t ON t.id = e.transfer_id
     WHERE a.owner_id = $1 AND a.kind = 'available'
       AND ($2::text IS NULL OR t.kind = $2) AND ($3::bigint IS NULL OR e.id < $3)
     ORDER BY e.id DESC LIMIT $4`,
    [userId, q.type ?? null, q.cursor ?? null, q.limit + 1],
  );
  return rows;
}
