import type { KycState, OpsKycSubmission } from '@shared/kyc/model';
import type { KycRow } from './kyc.repo';

/** The user's identity-check state from their latest submission (none: never submitted). */
export function presentKyc(row: KycRow | null): KycState {
  if (!row) return { status: 'none' };
  return {
    status: row.status,
    ...(row.status === 'rejected' && row.reason ? { reason: row.reason } : {}),
    submittedAt: row.created_at.getTime(),
  };
}

export function presentOpsKyc(row: KycRow): OpsKycSubmission {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    userAccount: row.user_account ?? '',
    name: row.name,
    idNumber: row.id_number,
    nationality: row.nationality,
    frontId: row.front_id,
    backId: row.back_id,
    status: row.status,
    ...(row.reason ? { reason: row.reason } : {}),
    createdAt: row.created_at.getTime(),
    ...(row.reviewed_at ? { reviewedAt: row.reviewed_at.getTime() } : {}),
    sameIdNumber: row.same_id_number ?? [],
  };
}
