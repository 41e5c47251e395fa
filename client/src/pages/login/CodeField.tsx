import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RECOVERY_CODE, twoFactorCode } from '@shared/security/model';
import { ApiError } from '@client/api/client';
import { TextField } from '@client/components/form/TextField';
import type { MessageKey } from '@client/components/form/validation';

/** The code as sent: spaces dropped ("123 456" as an app shows it), case left to the server. */
export const codeToSend = (value: string) => value.replace(/\s+/g, '');

/** What is wrong with a typed code, as the form shows it; null when it may be sent. */
export function codeProblem(value: string): MessageKey | null {
  const code = codeToSend(value);
  if (code === '') return 'errors.TWO_FACTOR_REQUIRED';
  return twoFactorCode.safeParse(code).success ? null : 'errors.TWO_FACTOR_CODE_WRONG';
}

/**
 * A refusal of the code (wrong or used), said under the code input: the server names no field.
 * Other failures pass through unchanged.
 */
export function onCodeField(error: unknown): unknown {
  if (error instanceof ApiError && error.code === 'TWO_FACTOR_CODE_WRONG')
    return new ApiError(error.code, error.message, error.status, 'code');
  return error;
}

/** Whether a typed code is a recovery code (it has letters or a dash). */
export const isRecoveryCode = (value: string) =>
  /[a-z-]/i.test(value) || RECOVERY_CODE.test(codeToSend(value));

/**
 * One input for a two-factor code: six digits from the authenticator app (the numeric keypad,
 * and the phone's one-time-code autofill), or a recovery code (letters: the full keyboard, from
 * the first letter typed or after "Use a recovery code"). Takes `form.field(…)`.
 */
export interface CodeInput {
  name: string;
  value: string;
  error: MessageKey | null;
  onValue: (value: string) => void;
  onBlur: () => void;
}

export function CodeField({
  testId,
  label,
  ...field
}: CodeInput & { testId: string; label?: string }) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const letters = recovery || /[a-z]/i.test(field.value);
  return (
    <>
      <TextField
        {...field}
        label={label ?? t('security.code.label')}
        hint={t('security.code.hint')}
        testId={testId}
        inputMode={letters ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        autoCapitalize="characters"
        enterKeyHint="go"
        maxLength={13}
        filter={(v) => v.replace(/[^0-9a-z\s-]/gi, '').slice(0, 13)}
      />
      <button
        type="button"
        className="auth__forgot code-field__switch"
        data-testid={`${testId}-kind`}
        aria-pressed={recovery}
        onClick={() => setRecovery((r) => !r)}
      >
        {recovery ? t('security.code.useApp') : t('security.code.useRecovery')}
      </button>
    </>
  );
}
