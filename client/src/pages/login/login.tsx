import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { afterLoginPath } from '@client/app/guard';
import { Brand } from '@client/components/Brand';
import { PageHeader } from '@client/components/PageHeader';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { required } from '@client/components/form/validation';
import { login, useSessionEnded } from '@client/state';
import '@client/components/form/form.css';
import { z } from 'zod';
import { paths } from '@client/app/route-table';

const schema = z.object({ account: required(), password: required() });

/** Passed in navigation state by registration, so the new account is filled in. */
export interface LoginState {
  account?: string;
}

/** /pages/login/login: account and password; back to where the guard found the user. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const prefill = (location.state as LoginState | null)?.account ?? '';
  // Why the last session ended under the user, when it did (streams/session-link.ts).
  const ended = useSessionEnded();
  const form = useForm({ account: prefill, password: '' }, schema);

  const send = form.onSubmit(async (values) => {
    await login({ account: values.account.trim(), password: values.password });
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
        <form id={form.formId} className="form" onSubmit={send} noValidate>
          <FormError message={form.formError} />
          <TextField
            {...form.field('account')}
            label={t('account.fields.account')}
            testId="account"
            autoComplete="username"
            autoCapitalize="none"
            enterKeyHint="next"
          />
          <TextField
            {...form.field('password')}
            label={t('account.fields.password')}
            testId="password"
            type="password"
            autoComplete="current-password"
            enterKeyHint="go"
          />
          <Link to={paths.forgotPassword} className="auth__forgot" data-testid="forgot-password">
            {t('account.login.forgot')}
          </Link>
          <SubmitButton busy={form.submitting}>{t('account.login.submit')}</SubmitButton>
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
