import { z } from 'zod';
import { freeText } from '../text';
import type {
  antiPhishingDto,
  recoveryCodesDto,
  securitySessionDto,
  sessionPlaceDto,
  twoFactorEnrolmentDto,
  twoFactorStateDto,
} from '../contract/answers';

/**
 * Two-factor sign-in (docs/API.md, Security): a six-digit code from an authenticator app (TOTP,
 * 30 s steps), or one of ten single-use recovery codes (`ABCDE-FGHJK`, the invitation codes'
 * alphabet without 0/O or 1/I), typed with or without the dash, in either case.
 */
export const RECOVERY_CODES = 10;
export const RECOVERY_CODE = /^[A-HJ-NP-Z2-9]{5}-?[A-HJ-NP-Z2-9]{5}$/i;

export const twoFactorCode = z
  .string()
  .trim()
  .max(20, 'a six-digit code or a recovery code')
  .refine((c) => /^\d{6}$/.test(c) || RECOVERY_CODE.test(c), 'a six-digit code or a recovery code')
  .describe('a six-digit code from the authenticator app, or a recovery code');

/** The device a code signed in on keeps this token; with it, the password alone signs in there. */
export const deviceToken = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'a device token (letters, digits, - and _)')
  .describe('the token a device that signed in keeps');

/** POST /api/security/two-factor/enrol: a new secret, confirmed with the transaction password. */
export const twoFactorEnrolBody = z.object({
  tradePassword: z.string().min(1, 'transaction password is required').max(6),
});

/** POST /api/security/two-factor/confirm and /disable: a current code. */
export const twoFactorCodeBody = z.object({ code: twoFactorCode });

export type TwoFactorState = z.infer<typeof twoFactorStateDto>;
export type TwoFactorEnrolment = z.infer<typeof twoFactorEnrolmentDto>;
export type RecoveryCodes = z.infer<typeof recoveryCodesDto>;

/** A session as the security page names it: the first 12 characters of its token's hash. */
export const sessionIdParam = z.object({
  id: z.string().regex(/^[0-9a-f]{12}$/, 'a session id (12 hex characters)'),
});

/** The anti-phishing phrase: 4-20 letters, digits or spaces, shown in every security message. */
export const ANTI_PHISHING = { min: 4, max: 20 } as const;
export const antiPhishingBody = z.object({
  phrase: z
    .string()
    .trim()
    .min(ANTI_PHISHING.min, `the phrase is ${ANTI_PHISHING.min}-${ANTI_PHISHING.max} characters`)
    .max(ANTI_PHISHING.max, `the phrase is ${ANTI_PHISHING.min}-${ANTI_PHISHING.max} characters`)
    .regex(/^[\p{L}\p{N} ]+$/u, 'letters, digits and spaces only')
    .nullable()
    .describe('null removes it'),
  tradePassword: z.string().min(1, 'transaction password is required').max(6),
});

/** POST /api/auth/sign-in-phrase: the phrase, to a device that signed in to the account before. */
export const signInPhraseBody = z.object({
  account: freeText().trim().min(1, 'account is required').max(20),
  device: deviceToken,
});

export type SecuritySession = z.infer<typeof securitySessionDto>;
export type SessionPlace = z.infer<typeof sessionPlaceDto>;
export type AntiPhishing = z.infer<typeof antiPhishingDto>;
