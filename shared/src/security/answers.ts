import { z } from 'zod';
import { id, ms, text } from '../contract/primitives';

/** GET /api/security/two-factor: whether it is on, and how many recovery codes are left. */
export const twoFactorStateDto = z
  .object({
    enabled: z.boolean(),
    pending: z.boolean().describe('enrolment started, not confirmed with a code yet'),
    recoveryCodesLeft: z.int(),
  })
  .meta({ id: 'TwoFactorState' });

/** The new secret, as a QR code's URI and as the key typed by hand. */
export const twoFactorEnrolmentDto = z
  .object({ secret: text, otpauthUri: text })
  .meta({ id: 'TwoFactorEnrolment' });

/** Ten single-use recovery codes, shown once: only their hashes are kept. */
export const recoveryCodesDto = z.object({ codes: z.array(text) }).meta({ id: 'RecoveryCodes' });

/** Where an address is, roughly: the country (ISO 3166 alpha-2) and, where known, the city. */
export const sessionPlaceDto = z
  .object({
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .describe('ISO 3166-1 alpha-2, named in the reader’s language by the client'),
    city: text.nullable().describe('the city’s English name, where the database has one'),
  })
  .meta({ id: 'SessionPlace' });

/** One signed-in session of the user, as the security page lists it. */
export const securitySessionDto = z
  .object({
    id: text.describe('the first 12 characters of the session token’s hash'),
    device: text.describe('device and browser, from the user agent ("Chrome · Android")'),
    place: sessionPlaceDto
      .nullable()
      .describe('the approximate place of its address, where the operator provides GeoIP'),
    createdAt: z.int(),
    lastSeenAt: z.int(),
    current: z.boolean().describe('the session this request came with'),
  })
  .meta({ id: 'SecuritySession' });

export const securitySessionsDto = z
  .object({ items: z.array(securitySessionDto) })
  .meta({ id: 'SecuritySessions' });

/** The user's anti-phishing phrase (null: none set). */
export const antiPhishingDto = z.object({ phrase: text.nullable() }).meta({ id: 'AntiPhishing' });

/**
 * A support reset of two-factor sign-in for a user who lost the authenticator and the recovery
 * codes (docs/OPERATIONS.md): pending until a second operator approves it, effective a delay later.
 */
export const twoFactorResetDto = z
  .object({
    requestedAt: ms,
    effectiveAt: ms.nullable().describe('when two-factor turns off; null until it is approved'),
  })
  .meta({ id: 'TwoFactorReset' });

/** GET /api/security/two-factor/reset: the user's pending reset, or null. */
export const pendingTwoFactorResetDto = z
  .object({ reset: twoFactorResetDto.nullable() })
  .meta({ id: 'PendingTwoFactorReset' });

/** The pending reset as operators see it: who asked, why, on which ticket, who approved. */
export const opsTwoFactorResetDto = twoFactorResetDto
  .extend({
    id,
    reason: text,
    ticket: text.describe('the support ticket it was asked on'),
    requestedBy: text.describe('the operator who asked for it'),
    approvedBy: text.nullable().describe('the admin who approved it (never the one who asked)'),
    approvedAt: ms.nullable(),
  })
  .meta({ id: 'OpsTwoFactorReset' });

/** A user's two-factor state on the operator console: never the secret, codes or their hashes. */
export const opsTwoFactorDto = z
  .object({
    enabled: z.boolean(),
    since: ms.nullable().describe('when it was turned on'),
    recoveryCodesLeft: z.int(),
    trustedDevices: z.int().describe('devices that sign in with the password alone'),
    reset: opsTwoFactorResetDto.nullable().describe('a pending support reset'),
  })
  .meta({ id: 'OpsTwoFactor' });
