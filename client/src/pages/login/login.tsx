import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { afterLoginPath } from '@client/app/guard';
import { Brand } from '@client/components/Brand';
import { PageHeader } from '@client/components/PageHeader';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { required } from '@client/components/form/validation';
import { ApiError } from '@client/api/client';
import { login, useSessionEnded } from '@client/state';
import '@client/components/form/form.css';
import { z } from 'zod';
import { paths } from '@client/app/route-table';
import { LockoutNotice, lockedUntil } from './LockoutNotice';
import { CodeField, codeProblem, codeToSend, onCodeField, type CodeInput } from './CodeField';
import { deviceTokenOf, keepDeviceToken } from './device-token';
import { SignInPhrase } from './SignInPhrase';

// The code is checked when sent, and only once the server asked for one (see `send`).
const schema = z.object({ account: required(), password: required(), code: z.string() });

const codeOf = (error: unknown) => (error instanceof ApiError ? error.code : null);

/**
 * Signs in, sending this device's token for the account (kept from an earlier sign-in) and the
 * code when one is asked; keeps the token a new device is given.
 */
async function signInWith(account: string, password: string, code: string | null) {
  // A code not worth sending is refused here, under its input, as the server would.
  const problem = code === null ? null : codeProblem(code);
  if (problem) throw new ApiError(problem.replace('errors.', ''), problem, 400, 'code');
  const device = deviceTokenOf(account) ?? undefined;
  const answer = await login({
    account,
    password,
    ...(code === null ? {} : { code }),
    ...(device ? { device } : {}),
  });
  if (answer.device) keepDeviceToken(account, answer.device);
}

/**
 * Passed in navigation state by registration, so the new account is filled in (never the
 * password: the browser's password manager, offered it at registration, fills that in).
 */
export interface LoginState {
  account?: string;
  /** Arrived from a password reset (every session ended): the new password signs in. */
  reset?: boolean;
}

/** /pages/login/login: account and password; back to where the guard found the user. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const arrived = location.state as LoginState | null;
  const prefill = arrived?.account ?? '';
  // Why the last session ended under the user, when it did (streams/session-link.ts).
  const ended = useSessionEnded();
  // With two-factor on and a device the server does not know, the code step (401
  // TWO_FACTOR_REQUIRED answered the right password), for the account it was asked for:
  // another account typed is another question.
  const [askedFor, setAskedFor] = useState<string | null>(null);
  const form = useForm({ account: prefill, password: '', code: '' }, schema);
  // A lock-out's end (429 with the time to wait): counted down in place of the form's error.
  const [locked, setLocked] = useState<number | null>(null);
  const unlock = useCallback(() => setLocked(null), []);
  const account = form.values.account;
  const codeAsked = askedFor !== null && askedFor === account.trim().toLowerCase();

  const send = form.onSubmit(async (values) => {
    setLocked(null);
    try {
      await signInWith(
        values.account.trim(),
        values.password,
        codeAsked ? codeToSend(values.code) : null,
      );
    } catch (error) {
      if (codeOf(error) === 'TWO_FACTOR_REQUIRED') {
        setAskedFor(values.account.trim().toLowerCase());
        return;
      }
      const until = lockedUntil(error);
      // A wrong or used code: said under the code, which stays for another try.
      if (until === null) throw onCodeField(error);
      setLocked(until);
      return;
    }
    void navigate(afterLoginPath(location.search), { replace: true });
  });

  return (
    <>
      <PageHeader title={t('pages.login')} back />
      <div className="auth">
        <Brand large />
        <h2 className="auth__heading">{t('account.login.heading')}</h2>
        {ended && (
          <p className="auth__notice" role="status" data-testid="session-ended">
            {t(`account.sessionEnded.${ended.reason}`)}
          </p>
        )}
        {arrived?.reset && (
          <p className="auth__notice" role="status" data-testid="password-reset-done">
            {t('security.reset.done')}
          </p>
        )}
        <form id={form.formId} className="form" onSubmit={send} noValidate>
          <FormError message={form.formError} />
          {locked !== null && <LockoutNotice key={locked} until={locked} onOver={unlock} />}
          <TextField
            {...form.field('account')}
            label={t('account.fields.account')}
            testId="account"
            autoComplete="username"
            autoCapitalize="none"
            enterKeyHint="next"
          />
          <SignInPhrase account={account} />
          <TextField
            {...form.field('password')}
            label={t('account.fields.password')}
            testId="password"
            type="password"
            autoComplete="current-password"
            enterKeyHint={codeAsked ? 'next' : 'go'}
          />
          {codeAsked && <CodeStep field={form.field('code')} />}
          <Link to={paths.forgotPassword} className="auth__forgot" data-testid="forgot-password">
            {t('account.login.forgot')}
          </Link>
          <SubmitButton busy={form.submitting}>
            {codeAsked ? t('security.signIn.verify') : t('account.login.submit')}
          </SubmitButton>
        </form>
        <p className="auth__switch">
          {t('account.login.noAccount')}{' '}
          <Link to={paths.registerCheck} data-testid="to-register">
            {t('account.login.toRegister')}
          </Link>
        </p>
      </div>
    </>
  );
}

/** The code step: what is asked and why, and the code input (focused when it appears). */
function CodeStep({ field }: { field: CodeInput }) {
  const { t } = useTranslation();
  useEffect(() => {
    document.querySelector<HTMLElement>('[data-testid="login-code"]')?.focus();
  }, []);
  return (
    <div className="login-code" data-testid="login-code-step">
      <p className="auth__notice" role="status">
        {t('security.signIn.codeAsked')}
      </p>
      <CodeField {...field} testId="login-code" />
    </div>
  );
}
