import { z } from 'zod';
import type { appInfoDto, loginAnswerDto, userDto } from '../contract/answers';
import { freeText, hasInvisibleCharacters } from '../text';
import { deviceToken, twoFactorCode } from '../security/model';

/** Account rules of DECISIONS.md (Accounts), shared by the server's validation and the client's forms. */
const accountRule = 'account must be 4-20 letters, digits or underscores';
export const accountSchema = z
  .string()
  // Checked as sent: `trim` would quietly drop a BOM (U+FEFF), and an invisible character is no
  // part of an account name (DECISIONS.md, Privacy and names).
  .refine((s) => !hasInvisibleCharacters(s), accountRule)
  .trim()
  .max(20, accountRule)
  .regex(/^[A-Za-z0-9_]{4,20}$/, accountRule);
const phoneRule = 'phone must be 6-15 digits, optionally starting with +';
export const phoneSchema = z
  .string()
  .trim()
  .max(16, phoneRule)
  .regex(/^\+?\d{6,15}$/, phoneRule);
export const inviteCodeSchema = freeText()
  .trim()
  .min(1, 'invite code is required')
  .max(32)
  .transform((s) => s.toUpperCase());
export const passwordSchema = z
  .string()
  .min(8, 'password must be at least 8 characters')
  .max(64, 'password must be at most 64 characters');
/** The transaction password's digits (a keypad input keeps no more). */
export const tradePasswordLength = 6;
export const tradePasswordSchema = z
  .string()
  .regex(new RegExp(`^\\d{${tradePasswordLength}}$`), 'transaction password must be 6 digits');

export const registerCheckBody = z.object({
  account: accountSchema,
  phone: phoneSchema,
  inviteCode: inviteCodeSchema,
});
/** The terms version a new account accepts when the server's TERMS_VERSION is not set. */
export const DEFAULT_TERMS_VERSION = '2026-11';
export const registerBody = registerCheckBody.extend({
  password: passwordSchema,
  passwordConfirm: z.string().max(64),
  tradePassword: tradePasswordSchema,
  tradePasswordConfirm: z.string().max(6),
  // Checked by the service (TERMS_NOT_ACCEPTED), so false and a stale version get the same code.
  acceptTerms: z
    .union([z.string().max(32), z.boolean()])
    .optional()
    .describe('the terms version shown (app-info termsVersion): consent to the terms and risk'),
});
export const loginBody = z.object({
  account: freeText().trim().min(1, 'account is required').max(20),
  password: z.string().min(1, 'password is required').max(64),
  /** With two-factor sign-in on: needed on a device not trusted yet (401 TWO_FACTOR_REQUIRED). */
  code: twoFactorCode.optional(),
  /** The token a device got when a code signed it in: it signs in there without a code. */
  device: deviceToken.optional(),
});
export const changePasswordBody = z.object({
  oldPassword: z.string().min(1, 'old password is required').max(64),
  newPassword: passwordSchema,
  confirmPassword: z.string().max(64),
  /** With two-factor sign-in on: a code (403 TWO_FACTOR_REQUIRED without one). */
  code: twoFactorCode.optional(),
});
export const changeTradePasswordBody = z.object({
  oldPassword: z.string().min(1, 'old password is required').max(6),
  newPassword: tradePasswordSchema,
  confirmPassword: z.string().max(6),
  code: twoFactorCode.optional(),
});

export type RegisterCheckBody = z.infer<typeof registerCheckBody>;
export type RegisterBody = z.infer<typeof registerBody>;
/**
 * POST /api/auth/reset: a forgotten login password, reset without support by a user with
 * two-factor on (a code or a recovery code, and the transaction password). Every session ends.
 */
export const passwordResetBody = z.object({
  account: freeText().trim().min(1, 'account is required').max(20),
  code: twoFactorCode,
  tradePassword: z.string().min(1, 'transaction password is required').max(6),
  newPassword: passwordSchema,
  confirmPassword: z.string().max(64),
});

export type LoginBody = z.infer<typeof loginBody>;
export type PasswordResetBody = z.infer<typeof passwordResetBody>;
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export type KycStatus = 'none' | 'pending' | 'verified' | 'rejected';

/** GET /api/me */
export type User = z.infer<typeof userDto>;
export type LoginAnswer = z.infer<typeof loginAnswerDto>;
export type AppInfo = z.infer<typeof appInfoDto>;
