import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { checkRegistration } from '@client/api/auth';
import { Brand } from '@client/components/Brand';
import { PageHeader } from '@client/components/PageHeader';
import { LegalNotice } from '@client/components/Trust';
import { defaultDialCountry, fullPhone } from '@client/components/form/dial-codes';
import { PhoneField } from '@client/components/form/PhoneField';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { checked, maxLengthOf } from '@client/components/form/validation';
import { accountSchema, inviteCodeSchema } from '@shared/accounts/model';
import { setRegisterInfo, useRegisterInfo } from '@client/state';
import { StepIndicator } from './StepIndicator';
import '@client/components/form/form.css';
import { paths } from '@client/app/route-table';
import { z } from 'zod';

export const registerCheckSchema = z.object({
  account: checked(accountSchema, 'account.rules.account'),
  // The national number (or a whole one with +); the code is joined on sending.
  phone: checked(z.string().regex(/^\+?\d{4,15}$/), 'account.rules.phoneLocal'),
  inviteCode: checked(inviteCodeSchema, 'errors.INVITE_INVALID'),
});

/**
 * /pages/login/registerCheck, step 1: account, phone and account-opening code, checked by the
 * server (account free, code valid) before step 2 asks for passwords.
 */
export function RegisterCheckPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const saved = useRegisterInfo();
  const [country, setCountry] = useState(() =>
    defaultDialCountry(i18n.resolvedLanguage ?? i18n.language, navigator.languages),
  );
  const form = useForm(
    {
      account: saved?.account ?? '',
      phone: saved?.phone ?? '',
      inviteCode: saved?.inviteCode ?? '',
    },
    registerCheckSchema,
  );

  const send = form.onSubmit(async (values) => {
    const info = {
      account: values.account.trim(),
      phone: fullPhone(country, values.phone),
      inviteCode: values.inviteCode.trim().toUpperCase(),
    };
    await checkRegistration(info);
    setRegisterInfo(info);
    void navigate(paths.register);
  });

  return (
    <>
      <PageHeader title={t('pages.registerCheck')} back />
      <div className="auth">
        <Brand large />
        <StepIndicator step={1} />
        <form id={form.formId} className="form" onSubmit={send} noValidate>
          <FormError message={form.formError} />
          <TextField
            {...form.field('account')}
            label={t('account.fields.account')}
            hint={t('account.rules.account')}
            testId="account"
            autoComplete="username"
            autoCapitalize="none"
            maxLength={maxLengthOf(accountSchema)}
            enterKeyHint="next"
          />
          <PhoneField
            {...form.field('phone')}
            label={t('account.fields.phone')}
            hint={t('account.rules.phoneLocal')}
            testId="phone"
            country={country}
            onCountry={setCountry}
          />
          <TextField
            {...form.field('inviteCode')}
            label={t('account.fields.inviteCode')}
            testId="invite-code"
            autoComplete="off"
            autoCapitalize="characters"
            maxLength={maxLengthOf(inviteCodeSchema)}
            enterKeyHint="next"
            hint={t('account.register.inviteHelp')}
          />
          <SubmitButton busy={form.submitting}>{t('account.register.next')}</SubmitButton>
        </form>
        <p className="auth__switch">
          {t('account.register.haveAccount')}{' '}
          <Link to={paths.login}>{t('account.register.toLogin')}</Link>
        </p>
        <LegalNotice />
      </div>
    </>
  );
}
