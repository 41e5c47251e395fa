import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from './TextField';
import type { MessageKey } from './validation';
import './two-factor-code.css';

/** The longest code typed: a recovery code with its dash and a space or two. */
const MAX_LENGTH = 13;

/**
 * The two-factor code a money move or a password change asks for while two-factor sign-in is on
 * (`useTwoFactorOn`): six digits from the authenticator app (the numeric keypad and the phone's
 * one-time-code autofill) or a recovery code (letters: the full keyboard, from the first letter
 * typed or after "Use a recovery code"). Takes `form.field('code')`; the server's refusals of the
 * code (TWO_FACTOR_REQUIRED, TWO_FACTOR_CODE_WRONG) show under it.
 */
export function TwoFactorCodeField({
  hint,
  ...field
}: {
  name: string;
  value: string;
  error: MessageKey | null;
  onValue: (value: string) => void;
  onBlur: () => void;
  hint?: string;
}) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const letters = recovery || /[a-z]/i.test(field.value);
  return (
    <div className="tfa-code">
      <TextField
        {...field}
        label={t('account.twoFactor.label')}
        hint={hint ?? t('account.twoFactor.hint')}
        testId="tfa-code"
        inputMode={letters ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        autoCapitalize="characters"
        maxLength={MAX_LENGTH}
        filter={(v) => v.replace(/[^0-9a-z\s-]/gi, '').slice(0, MAX_LENGTH)}
      />
      <button
        type="button"
        className="tfa-code__switch"
        data-testid="tfa-code-kind"
        aria-pressed={recovery}
        onClick={() => setRecovery((r) => !r)}
      >
        {t(recovery ? 'account.twoFactor.useApp' : 'account.twoFactor.useRecovery')}
      </button>
    </div>
  );
}
