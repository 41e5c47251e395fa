import type { KycBody, KycState, OpsKycSubmission } from '@shared/kyc/model';
import type { Db, Queryable } from '@infra/db';
import { pgErrorCode } from '@infra/db/db';
import { conflict, notFound, validationFailed } from '@server/platform/http/errors';
import { toPage, type PageRequest } from '@server/platform/paging';
import type { UserEvents } from '@server/platform/user-events';
import type { IncomingFile, UploadService } from '../uploads/upload.service';
import { announceMessage, writeSystemMessage } from '../content/system-messages';
import * as repo from './kyc.repo';
import { presentKyc, presentOpsKyc } from './kyc.presenter';
import { identityChecks } from './identity';

const underWay = () =>
  conflict('INVALID_STATE', 'An identity check is under review or verified already');

/**
 * Identity checks (DECISIONS.md, Accounts): none → pending → verified, or rejected with a reason,
 * after which the user may submit again.
 */
export function createKycService(
  db: Db,
  uploads: UploadService,
  userEvents: UserEvents,
  /** The wallet's account summaries: the `balance` event's `verified` flag follows the check. */
  summaries: { publish(userId: number): Promise<void> },
) {
  const notPending = async (tx: Queryable, id: number) => {
    const status = await repo.kycSubmissionStatus(tx, id);
    return status
      ? conflict('INVALID_STATE', `This identity check is already ${status}`)
      : notFound('No such identity check');
  };

  /**
   * Ends a pending check. The answer shows the other accounts with the same ID number as they
   * stand after this review, so verifying a number another account holds is flagged here too.
   */
  const review = async (id: number, to: 'verified' | 'rejected', reason: string | null) => {
    const { row, message } = await db.transaction(async (tx) => {
      const k = await repo.reviewKycSubmission(tx, id, to, reason);
      if (!k) throw await notPending(tx, id);
      const message = await writeSystemMessage(
        tx,
        k.user_id,
        to === 'verified' ? 'kyc_verified' : 'kyc_rejected',
        reason ? { reason } : {},
      );
      return { row: (await repo.opsKycSubmission(tx, id))!, message };
    });
    announceMessage(userEvents, message);
    // The summary's `verified` flag follows the check.
    await summaries.publish(row.user_id);
    return presentOpsKyc(row);
  };

  return {
    state: identityChecks(db).state,

    /**
     * Takes a submission with its two photos. Refused with 409 INVALID_STATE while one is under
     * review or once verified; a partial unique index makes two concurrent submissions end with
     * exactly one.
     */
    async submit(
      userId: number,
      body: KycBody,
      photos: { front?: IncomingFile; back?: IncomingFile },
    ): Promise<KycState> {
      if (!photos.front) throw validationFailed('front', 'front: the ID front photo is required');
      if (!photos.back) throw validationFailed('back', 'back: the ID back photo is required');
      const latest = await repo.latestKycSubmission(db, userId);
      if (latest && latest.status !== 'rejected') throw underWay();
      const staged = await uploads.stage([photos.front, photos.back]);
      try {
        const row = await db.transaction(async (tx) => {
          await uploads.record(tx, userId, staged);
          return repo.insertKycSubmission(tx, {
            userId,
            ...body,
            frontId: staged[0]!.id,
            backId: staged[1]!.id,
          });
        });
        return presentKyc(row);
      } catch (err) {
        await uploads.discard(staged);
        if (pgErrorCode(err) === '23505') throw underWay();
        throw err;
      }
    },

    /** Pending items in the queue, or one user's (whether they have something under review). */
    pendingCount: (userId?: number) => repo.countPending(db, userId),

    async review(q: PageRequest & { status?: repo.KycRowStatus }) {
      return toPage(await repo.listKycSubmissions(db, q), q.limit, presentOpsKyc);
    },

    approve: (id: number): Promise<OpsKycSubmission> => review(id, 'verified', null),
    reject: (id: number, reason: string): Promise<OpsKycSubmission> =>
      review(id, 'rejected', reason),
  };
}

export type KycService = ReturnType<typeof createKycService>;
