import type { SavingsRecord } from '@shared/savings/model';
import type { SavingsRecordRow } from './savings.repo';

/** Database rows never leave the server: this maps a record row to the shared DTO. */
export function presentSavingsRecord(r: SavingsRecordRow): SavingsRecord {
  return {
    id: String(r.id),
    type: r.kind,
    amount: r.amount,
    day: r.day,
    createdAt: r.at_ms,
  };
}
