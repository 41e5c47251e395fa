import type { TFunction } from 'i18next';
import { ApiError } from '@client/api/client';

/**
 * The translated text for a failure: the server's stable code when there is one, else a
 * generic text. The server's English `message` is never shown to the user.
 */
export function errorText(t: TFunction, error: unknown): string {
  const wait = retryAfterSeconds(error);
  if (wait !== null) return t('errors.retryIn', { seconds: wait });
  const code = error instanceof ApiError ? error.code : 'UNKNOWN';
  // Codes arrive at run time, so the key cannot be checked at compile time; the locales test
  // checks that every code of the contract has a text, and unknown codes fall back.
  const key = `errors.${code}` as 'errors.UNKNOWN';
  return t(key, { defaultValue: t('errors.UNKNOWN') });
}

/** The text of a message key (form rules and `errors.<CODE>`); unknown codes fall back. */
export function messageText(t: TFunction, key: string): string {
  // Keys built from server codes cannot be checked at compile time; see errorText.
  return t(key as 'errors.UNKNOWN', { defaultValue: t('errors.UNKNOWN') });
}

/**
 * Whole seconds to wait before trying again, rounded up, when the server refused a request for
 * its rate (429 RATE_LIMITED) and said for how long; else null.
 */
export function retryAfterSeconds(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.code !== 'RATE_LIMITED') return null;
  if (error.retryAfterMs === undefined) return null;
  return Math.max(1, Math.ceil(error.retryAfterMs / 1000));
}
