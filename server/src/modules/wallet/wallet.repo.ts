import type { TransferKind } from '@shared/wallet';
import type { Queryable } from '@infra/db';
import type { PageRequest } from '@server/platform/paging';

export async function creditScoreOf(db: Queryable, userId: number): Promise<number> {
  const { rows } = await db.query<{ credit_score: number }>(
    'SELECT credit_score FROM users WHERE id = $1',
    [userId],
  );
  return rows[0]?.credit_score ?? 0;
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
