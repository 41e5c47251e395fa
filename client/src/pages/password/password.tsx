import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { changePassword, type PasswordKind } from '@client/api/auth';
import { PageHeader } from '@client/components/PageHeader';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { TwoFactorCodeField } from '@client/components/form/TwoFactorCodeField';
import { useForm } from '@client/components/form/useForm';
import {
  checked,
  digitsOnly,
  maxLengthOf,
  required,
  sameAs,
} from '@client/components/form/validation';
import { changePasswordBody, passwordSchema, tradePasswordSchema } from '@shared/accounts/model';
import { z } from 'zod';
import { showToast } from '@client/state';
import { codeField, codeRefusal, codeRule, useTwoFactorCode } from '@client/state/two-factor';
import '@client/components/form/form.css';
import { paths } from '@client/app/route-table';

const SETTINGS = paths.settings;

/** The form of each kind; `code` is checked while two-factor is on (`asked`). */
const schemaOf = (kind: PasswordKind, asked: () => boolean) =>
  kind === 'login'
    ? z
        .object({
          oldPassword: required(),
          newPassword: checked(passwordSchema, 'account.rules.password'),
          confirmPassword: required(),
          code: codeRule(asked),
        })
        .superRefine(sameAs('newPassword', 'confirmPassword', 'errors.PASSWORD_MISMATCH'))
    : z
        .object({
          oldPassword: required(),
          newPassword: checked(tradePasswordSchema, 'account.rules.tradePassword'),
          confirmPassword: required(),
          code: codeRule(asked),
        })
        .superRefine(sameAs('newPassword', 'confirmPassword', 'errors.TRADE_PASSWORD_MISMATCH'));

/** `?kind=trade` changes the transaction password; anything else the login password. */
export function passwordKind(param: string | null): PasswordKind {
  return param === 'trade' ? 'trade' : 'login';
}

function PasswordForm({ kind }: { kind: PasswordKind }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  // With two-factor on, a password change also takes a code (read as the form is checked).
  const { on: withCode, asked } = useTwoFactorCode();
  const schema = useMemo(() => schemaOf(kind, asked), [kind, asked]);
  const form = useForm({ oldPassword: '', newPassword: '', confirmPassword: '', code: '' }, schema);
  const trade = kind === 'trade';
  // The transaction password is six digits: a numeric keypad, and nothing else is accepted
  // (the filter also trims a pasted "123 456", which maxLength would have cut first).
  const keypad = trade
    ? ({ inputMode: 'numeric', filter: digitsOnly, autoComplete: 'off' } as const)
    : ({ maxLength: maxLengthOf(changePasswordBody.shape.oldPassword) } as const);

  const send = form.onSubmit(async ({ code, ...values }) => {
    try {
      await changePassword(kind, { ...values, ...codeField(withCode, code) });
    } catch (error) {
      throw codeRefusal(error);
    }
    showToast(t('common.settingSucceeded'));
    // Back to where the user came from (settings); opened directly, to settings.
    void (location.key === 'default' ? navigate(SETTINGS, { replace: true }) : navigate(-1));
  });

  return (
    <form id={form.formId} className="form" onSubmit={send} noValidate>
      <FormError message={form.formError} />
      <TextField
        {...form.field('oldPassword')}
        label={t(trade ? 'account.fields.oldTradePassword' : 'account.fields.oldPassword')}
        testId="old-password"
        type="password"
        autoComplete={trade ? 'off' : 'current-password'}
        {...keypad}
      />
      <TextField
        {...form.field('newPassword')}
        label={t(trade ? 'account.fields.newTradePassword' : 'account.fields.newPassword')}
        hint={t(trade ? 'account.rules.tradePassword' : 'account.rules.password')}
        testId="new-password"
        type="password"
        autoComplete={trade ? 'off' : 'new-password'}
        {...keypad}
      />
      <TextField
        {...form.field('confirmPassword')}
        label={t(trade ? 'account.fields.confirmTradePassword' : 'account.fields.confirmPassword')}
        testId="confirm-password"
        type="password"
        autoComplete={trade ? 'off' : 'new-password'}
        {...keypad}
      />
      {withCode && <TwoFactorCodeField {...form.field('code')} />}
      <p className="form__note">{t('account.password.otherSessions')}</p>
      <SubmitButton busy={form.submitting}>{t('common.confirm')}</SubmitButton>
    </form>
  );
}

/** /pages/password/password?kind=login|trade: old, new and confirmation. */
export function PasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const kind = passwordKind(params.get('kind'));
  return (
    <>
      <PageHeader
        title={t(
          kind === 'trade'
            ? 'account.settings.changeTradePassword'
            : 'account.settings.changePassword',
        )}
        back
      />
      <div className="auth">
        {/* Keyed by kind: switching kinds starts an empty form with the other rules. */}
        <PasswordForm key={kind} kind={kind} />
      </div>
    </>
  );
}
