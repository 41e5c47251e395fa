import { z } from 'zod';
import { each, id, kycStatus, ms, ofUser, reviewed, text } from '../contract/primitives';

export const userDto = z
  .object({
    id,
    ...each(text, 'account', 'phone', 'nickname', 'inviteCode'),
    creditScore: z.int(),
    kyc: z.object({ status: kycStatus, reason: text.optional() }),
    createdAt: ms,
  })
  .meta({ id: 'User' });
export const appInfoDto = z
  .object({
    ...each(text, 'name', 'currency', 'serviceUrl'),
    ...each(z.array(text), 'depositChannels', 'languages'),
    logoUrl: text.optional().describe('APP_LOGO_URL; absent: the mark built into the client'),
    ...each(text, 'legalEntity', 'legalRegistration'),
    riskWarning: text
      .optional()
      .describe("RISK_WARNING; absent: the client's sentence in the user's language"),
    termsVersion: text.describe('the terms version registration must send as acceptTerms'),
    showCreditScore: z.boolean().describe('SHOW_CREDIT_SCORE: the personal centre shows the score'),
    testClock: z
      .boolean()
      .optional()
      .describe(
        'present (true) only on a server started with TEST_CLOCK=1: /api/test/clock exists',
      ),
  })
  .meta({ id: 'AppInfo' });
export const opsKycSubmissionDto = z
  .object({
    id,
    ...ofUser,
    ...each(text, 'name', 'idNumber', 'nationality'),
    ...each(text.describe('the photo: GET /api/uploads/{id}'), 'frontId', 'backId'),
    status: z.enum(['pending', 'verified', 'rejected']),
    ...reviewed,
    sameIdNumber: z
      .array(z.object({ ...ofUser, status: z.enum(['pending', 'verified']) }))
      .describe(
        'other accounts with this ID number (compared normalised) under review or verified, for the operator to weigh (a family sharing a phone, a typo, or one person with several accounts); never refused for it',
      ),
  })
  .meta({ id: 'OpsKycSubmission' });
export const registeredDto = z.object({ user: userDto }).meta({ id: 'Registered' });
export const loginAnswerDto = z
  .object({
    token: text,
    user: userDto,
    device: text
      .optional()
      .describe('after a sign-in with a code: the token this device keeps to skip the code'),
  })
  .meta({ id: 'LoginAnswer' });
export const kycStateDto = z
  .object({ status: kycStatus, reason: text.optional(), submittedAt: ms.optional() })
  .meta({ id: 'KycState' });
export const testClockStateDto = z
  .object({ ...each(ms, 'now', 'nextCutoff') })
  .meta({ id: 'TestClockState' });
