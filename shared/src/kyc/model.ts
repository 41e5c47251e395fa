import { z } from 'zod';
import type { kycStateDto, opsKycSubmissionDto } from '../contract/answers';
import { personName } from '../text';
import { nationality, pageQuery } from '../wallet/requests';

/** GET /api/kyc: the state of the user's latest identity submission. */
export type KycState = z.infer<typeof kycStateDto>;
/** What an operator reviews; the photos are fetched with GET /api/uploads/:id. */
export type OpsKycSubmission = z.infer<typeof opsKycSubmissionDto>;

/** Mainland China resident ID: 15 digits, or 18 with a final check character that may be X. */
const chineseId = /^(\d{15}|\d{17}[\dX])$/;
const otherId = /^[A-Z0-9]{5,30}$/;

/** POST /api/kyc (multipart fields; `front` and `back` are file parts). */
export const kycBody = z
  .object({
    name: personName().trim().min(2, 'name must be 2-50 characters').max(50),
    nationality,
    idNumber: z.string().trim().toUpperCase().max(30),
  })
  .superRefine((v, ctx) => {
    const cn = v.nationality === 'CN';
    if (!(cn ? chineseId : otherId).test(v.idNumber))
      ctx.addIssue({
        code: 'custom',
        path: ['idNumber'],
        message: cn
          ? 'a Chinese ID number is 15 or 18 digits (the last may be X)'
          : 'an ID number is 5-30 letters and digits',
      });
  });

export const kycReviewQuery = pageQuery.extend({
  status: z.enum(['pending', 'verified', 'rejected']).optional(),
});

export type KycBody = z.infer<typeof kycBody>;
