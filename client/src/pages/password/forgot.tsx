import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { passwordSchema, tradePasswordSchema } from '@shared/accounts/model';
import { ApiError } from '@client/api/client';
import { resetPassword } from '@client/api/security';
import { PageHeader } from '@client/components/PageHeader';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { checked, required, ruled, sameAs } from '@client/components/form/validation';
import { TradePasswordField } from '@client/components/wallet/TradePasswordField';
import { CodeField, codeProblem, codeToSend, onCodeField } from '@client/pages/login/CodeField';
import type { LoginState } from '@client/pages/login/login';
import { useAppInfo } from '@client/state';
import { paths } from '@client/app/route-table';
import '@client/components/form/form.css';
import '@client/pages/login/code-field.css';
import './forgot.css';

const schema = z
  .object({
    account: required(),
    code: ruled(codeProblem),
    tradePassword: checked(tradePasswordSchema, 'account.rules.tradePassword'),
    newPassword: checked(passwordSchema, 'account.rules.password'),
    confirmPassword: required(),
  })
  .superRefine(sameAs('newPassword', 'confirmPassword', 'errors.PASSWORD_MISMATCH'));

/** With two-factor on: account, a code, the transaction password and the new password twice. */
function ResetForm({ onTwoFactorOff }: { onTwoFactorOff: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm(
    { account: '', code: '', tradePassword: '', newPassword: '', confirmPassword: '' },
    schema,
  );
  const send = form.onSubmit(async (values) => {
    const account = values.account.trim();
    try {
      await resetPassword({ ...values, account, code: codeToSend(values.code) });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TWO_FACTOR_OFF') onTwoFactorOff();
      throw onCodeField(error);
    }
    const state: LoginState = { account, reset: true };
    void navigate(paths.login, { replace: true, state });
  });
  return (
    <form id={form.formId} className="form" onSubmit={send} noValidate data-testid="reset-form">
      <FormError message={form.formError} />
      <TextField
        {...form.field('account')}
        label={t('account.fields.account')}
        testId="account"
        autoComplete="username"
        autoCapitalize="none"
        enterKeyHint="next"
      />
      <CodeField {...form.field('code')} testId="reset-code" />
      <TradePasswordField {...form.field('tradePassword')} />
      <TextField
        {...form.field('newPassword')}
        label={t('account.fields.newPassword')}
        hint={t('account.rules.password')}
        testId="new-password"
        type="password"
        autoComplete="new-password"
      />
      <TextField
        {...form.field('confirmPassword')}
        label={t('account.fields.confirmPassword')}
        testId="confirm-password"
        type="password"
        autoComplete="new-password"
        enterKeyHint="go"
      />
      <SubmitButton busy={form.submitting}>{t('security.reset.submit')}</SubmitButton>
    </form>
  );
}

/**
 * /pages/password/forgot: with two-factor on, the user resets the login password here (a code,
 * the transaction password; every session ends). Without it, customer support resets it, after
 * checking the account is the caller's (DECISIONS.md, Forgotten password): what to have ready,
 * and customer support one tap away (SERVICE_URL, new tab).
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const serviceUrl = useAppInfo()?.serviceUrl;
  const [twoFactorOff, setTwoFactorOff] = useState(false);
  const support = useRef<HTMLHeadingElement>(null);
  const toSupport = () => {
    setTwoFactorOff(true);
    support.current?.scrollIntoView({ block: 'start' });
  };
  return (
    <>
      <PageHeader title={t('pages.forgotPassword')} back />
      <div className="auth forgot">
        <h2 className="auth__heading">{t('account.forgot.heading')}</h2>
        <p>{t('security.reset.which')}</p>
        <h3 className="forgot__title">{t('security.reset.withTwoFactor')}</h3>
        {twoFactorOff && (
          <p className="auth__notice" role="alert" data-testid="reset-two-factor-off">
            {t('security.reset.twoFactorOff')}
          </p>
        )}
        <ResetForm onTwoFactorOff={toSupport} />
        <h3 className="forgot__title" ref={support} tabIndex={-1}>
          {t('security.reset.withoutTwoFactor')}
        </h3>
        <p>{t('account.forgot.body')}</p>
        <h4 className="forgot__subtitle">{t('account.forgot.prepareTitle')}</h4>
        <ul className="forgot__list">
          <li>{t('account.forgot.prepareAccount')}</li>
          <li>{t('account.forgot.prepareIdentity')}</li>
          <li>{t('account.forgot.prepareMoney')}</li>
        </ul>
        <p className="forgot__note">{t('account.forgot.never')}</p>
        {serviceUrl && (
          <a
            className="button button--block"
            href={serviceUrl}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="contact-support"
          >
            {t('account.forgot.contact')}
          </a>
        )}
        <p className="auth__switch">
          <Link to={paths.login}>{t('account.forgot.backToLogin')}</Link>
        </p>
      </div>
    </>
  );
}
