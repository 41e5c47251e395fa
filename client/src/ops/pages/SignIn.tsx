import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import * as ops from '@shared/operators/routes';
import { call, OpsError, writeSession } from '../api';
import { useT } from '../useT';
import { LanguageSwitch } from '../components/LanguageSwitch';

const schema = z.object({
  name: z.string().trim().min(1, 'signIn.nameRequired'),
  password: z.string().min(1, 'signIn.passwordRequired'),
  code: z.string().regex(/^\d{6}$/, 'signIn.codeFormat'),
});
type Fields = z.infer<typeof schema>;

/** Name, password and the six digits of the authenticator app. */
export function SignIn() {
  const { t } = useT();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Fields>({
    resolver: zodResolver(schema),
    defaultValues: { name: '', password: '', code: '' },
  });
  const onSubmit = async (fields: Fields) => {
    setFailure(null);
    try {
      const answer = await call(ops.operatorLogin, { body: fields });
      writeSession({
        token: answer.token,
        name: answer.operator.name,
        expiresAt: answer.expiresAt,
      });
    } catch (err) {
      const code = err instanceof OpsError ? err.code : 'NETWORK';
      setFailure(
        code === 'BAD_CREDENTIALS' || code === 'TOO_MANY_ATTEMPTS' || code === 'NETWORK'
          ? t(`signIn.errors.${code}`)
          : t('common.failed'),
      );
    }
  };
  const error = (name: keyof Fields) => {
    const message = formState.errors[name]?.message;
    return message ? (
      <span className="ops-field-error" id={`${name}-error`}>
        {t(message)}
      </span>
    ) : null;
  };
  return (
    <div className="ops-signin">
      <form onSubmit={handleSubmit(onSubmit)} noValidate aria-labelledby="signin-title">
        <h1 id="signin-title">{t('signIn.title')}</h1>
        <p className="ops-muted">{t('signIn.intro')}</p>
        <label className="ops-field">
          <span>{t('signIn.name')}</span>
          <input autoComplete="username" autoFocus {...register('name')} />
          {error('name')}
        </label>
        <label className="ops-field">
          <span>{t('signIn.password')}</span>
          <input type="password" autoComplete="current-password" {...register('password')} />
          {error('password')}
        </label>
        <label className="ops-field">
          <span>{t('signIn.code')}</span>
          <input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            {...register('code')}
          />
          {error('code')}
        </label>
        {failure && (
          <p className="ops-alert" role="alert">
            {failure}
          </p>
        )}
        <button type="submit" className="ops-btn ops-primary" disabled={formState.isSubmitting}>
          {t('signIn.submit')}
        </button>
        <LanguageSwitch />
      </form>
    </div>
  );
}
