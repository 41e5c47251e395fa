import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { register } from '@client/api/auth';
import { PageHeader } from '@client/components/PageHeader';
import { RiskNote } from '@client/components/Trust';
import { RulesSheet } from '@client/components/orders/RulesSheet';
import { CheckField } from '@client/components/form/CheckField';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import {
  checked,
  digitsOnly,
  maxLengthOf,
  required,
  sameAs,
} from '@client/components/form/validation';
import { passwordSchema, tradePasswordSchema } from '@shared/accounts/model';
import { setRegisterInfo, showToast, useAppInfo, useRegisterInfo } from '@client/state';
import type { LoginState } from './login';
import { StepIndicator } from './StepIndicator';
import '@client/components/form/form.css';
import { paths } from '@client/app/route-table';
import { z } from 'zod';

const REGISTER_CHECK = paths.registerCheck;

const schema = z
  .object({
    password: checked(passwordSchema, 'account.rules.password'),
    passwordConfirm: required(),
    tradePassword: checked(tradePasswordSchema, 'account.rules.tradePassword'),
    tradePasswordConfirm: required(),
    // The terms version agreed to ('' until the box is ticked): what the server records.
    acceptTerms: required('errors.TERMS_NOT_ACCEPTED'),
  })
  .superRefine(sameAs('password', 'passwordConfirm', 'errors.PASSWORD_MISMATCH'))
  .superRefine(sameAs('tradePassword', 'tradePasswordConfirm', 'errors.TRADE_PASSWORD_MISMATCH'));
const passwordMax = maxLengthOf(passwordSchema);

/**
 * Whose passwords these are: said on screen, and given to the browser as the form's username (a
 * hidden input), so its password manager saves the new password under the account typed at step
 * 1 and offers both at the login page.
 */
function ForAccount({ account }: { account: string }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="auth__for">{t('account.register.forAccount', { account })}</p>
      <input
        type="text"
        name="username"
        autoComplete="username"
        value={account}
        readOnly
        hidden
        data-testid="register-username"
      />
    </>
  );
}

/**
 * /pages/login/register, step 2: login password and transaction password, each confirmed.
 * Step 1's answers come from `registerInfo`; without them the user is sent back to step 1.
 */
export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useRegisterInfo();
  const termsVersion = useAppInfo()?.termsVersion ?? '';
  const [rulesOpen, setRulesOpen] = useState(false);
  // Set on success: clearing registerInfo must not flash the "start at step 1" notice.
  const [finished, setFinished] = useState(false);
  const form = useForm(
    {
      password: '',
      passwordConfirm: '',
      tradePassword: '',
      tradePasswordConfirm: '',
      acceptTerms: '',
    },
    schema,
  );

  const send = form.onSubmit(async (values) => {
    if (!info) return;
    await register({ ...info, ...values });
    setFinished(true);
    showToast(t('account.register.succeeded'));
    void navigate(paths.login, {
      replace: true,
      state: { account: info.account } satisfies LoginState,
    });
    setRegisterInfo(null);
  });

  if (finished) return null;
  return (
    <>
      <PageHeader title={t('pages.register')} back />
      <div className="auth">
        <StepIndicator step={2} />
        {info ? (
          <form id={form.formId} className="form" onSubmit={send} noValidate>
            <ForAccount account={info.account} />
            <FormError message={form.formError} />
            {form.formError && (
              <Link to={REGISTER_CHECK} className="form__link">
                {t('account.register.backToStep1')}
              </Link>
            )}
            <TextField
              {...form.field('password')}
              label={t('account.fields.password')}
              hint={t('account.rules.password')}
              testId="password"
              type="password"
              autoComplete="new-password"
              maxLength={passwordMax}
            />
            <TextField
              {...form.field('passwordConfirm')}
              label={t('account.fields.passwordConfirm')}
              testId="password-confirm"
              type="password"
              autoComplete="new-password"
              maxLength={passwordMax}
            />
            <TextField
              {...form.field('tradePassword')}
              label={t('account.fields.tradePassword')}
              hint={t('account.rules.tradePassword')}
              testId="trade-password"
              type="password"
              inputMode="numeric"
              autoComplete="off"
              filter={digitsOnly}
            />
            <TextField
              {...form.field('tradePasswordConfirm')}
              label={t('account.fields.tradePasswordConfirm')}
              testId="trade-password-confirm"
              type="password"
              inputMode="numeric"
              autoComplete="off"
              filter={digitsOnly}
            />
            <CheckField
              label={t('account.register.consent')}
              testId="accept-terms"
              checked={form.values.acceptTerms !== ''}
              error={form.errorOf('acceptTerms')}
              onChange={(on) => form.setValue('acceptTerms', on ? termsVersion : '')}
              links={
                <>
                  <button type="button" data-testid="open-rules" onClick={() => setRulesOpen(true)}>
                    {t('account.register.terms')}
                  </button>
                  ·<Link to={paths.privacy}>{t('pages.privacy')}</Link>·
                  <Link to={paths.aboutUs} data-testid="risk-disclosure">
                    {t('account.register.riskDisclosure')}
                  </Link>
                </>
              }
            />
            <RiskNote />
            <SubmitButton busy={form.submitting}>{t('account.register.submit')}</SubmitButton>
          </form>
        ) : (
          <div className="notice-page">
            <p>{t('account.register.missingStep1')}</p>
            <Link className="button" to={REGISTER_CHECK}>
              {t('account.register.backToStep1')}
            </Link>
          </div>
        )}
      </div>
      {rulesOpen && <RulesSheet onClose={() => setRulesOpen(false)} />}
    </>
  );
}
