import { useCallback, useEffect, useRef } from 'react';
import { z } from 'zod';
import { twoFactorCode } from '@shared/security/model';
import { ApiError } from '@client/api/client';
import { getTwoFactor } from '@client/api/security';
import type { MessageKey } from '@client/components/form/validation';
import { useApiQuery } from './queries';
import { queryClient } from './query-client';

/** The same read as the security page's (its changes reload it), under `me` like every user read. */
export const twoFactorKey = ['me', 'security', 'two-factor'] as const;

/**
 * Whether two-factor sign-in is on, so a money or password form asks for its code. Read on each
 * visit of the form (the security page may have changed it); false while it is being read or
 * could not be: the server then answers TWO_FACTOR_REQUIRED, and `codeRefusal` reads it again.
 */
export function useTwoFactorOn(): boolean {
  const state = useApiQuery(twoFactorKey, () => getTwoFactor(), { perVisit: true });
  return state.status === 'ready' && state.data.enabled;
}

/**
 * For a form: whether the code field is shown (`on`), and `asked`, a stable function its schema
 * reads at each check (the form's schema is made once; the state arrives after).
 */
export function useTwoFactorCode(): { on: boolean; asked: () => boolean } {
  const on = useTwoFactorOn();
  const shown = useRef(on);
  useEffect(() => {
    shown.current = on;
  }, [on]);
  const asked = useCallback(() => shown.current, []);
  return { on, asked };
}

/** The code as sent: spaces dropped ("123 456" as an app shows it), the case left to the server. */
export const codeToSend = (value: string): string => value.replace(/\s+/g, '');

/** What is wrong with a typed code; null when it may be sent. */
export function codeProblem(value: string): MessageKey | null {
  const code = codeToSend(value);
  if (code === '') return 'errors.TWO_FACTOR_REQUIRED';
  return twoFactorCode.safeParse(code).success ? null : 'errors.TWO_FACTOR_CODE_WRONG';
}

/**
 * The `code` value of a form schema: checked only while `asked()` says the field is shown
 * (a function, read at each check, as the state arrives after the form is made).
 */
export const codeRule = (asked: () => boolean) =>
  z.string().superRefine((value, ctx) => {
    const problem = asked() ? codeProblem(value) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** The `code` to send: the typed code while the field is shown, else none. */
export const codeField = (shown: boolean, value: string): { code?: string } =>
  shown && codeToSend(value) !== '' ? { code: codeToSend(value) } : {};

const codeErrors = new Set(['TWO_FACTOR_REQUIRED', 'TWO_FACTOR_CODE_WRONG']);

/**
 * A refusal for the code, put on the code field (the server may name no field); a code asked
 * for that the form did not show reads the two-factor state again, so the field appears.
 */
export function codeRefusal(error: unknown): unknown {
  if (!(error instanceof ApiError) || !codeErrors.has(error.code)) return error;
  if (error.code === 'TWO_FACTOR_REQUIRED')
    void queryClient.invalidateQueries({ queryKey: twoFactorKey });
  return new ApiError(error.code, error.message, error.status, 'code', error.retryAfterMs);
}
