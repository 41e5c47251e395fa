import type { KycState } from '@shared/kyc/model';
import type { Queryable } from '@infra/db';
import * as repo from './kyc.repo';
import { presentKyc } from './kyc.presenter';

/**
 * What other modules read of a user's identity check: the profile shows its state, the account
 * summary and withdrawals ask whether it is verified.
 */
export function identityChecks(db: Queryable) {
  return {
    state: async (userId: number): Promise<KycState> =>
      presentKyc(await repo.latestKycSubmission(db, userId)),
    verified: async (userId: number): Promise<boolean> =>
      (await repo.latestKycSubmission(db, userId))?.status === 'verified',
    /** Of these users, those whose latest submission is verified. */
    verifiedAmong: (userIds: readonly number[]): Promise<Set<number>> =>
      repo.verifiedAmong(db, userIds),
  };
}

export type IdentityChecks = ReturnType<typeof identityChecks>;
