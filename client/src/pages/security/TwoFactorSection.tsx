import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { disableTwoFactor, getTwoFactor, type TwoFactorState } from '@client/api/security';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { FormError, SubmitButton } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { ruled } from '@client/components/form/validation';
import { CodeField, codeProblem, codeToSend, onCodeField } from '@client/pages/login/CodeField';
import { showToast, useApiQuery } from '@client/state';
import { TwoFactorEnrol } from './TwoFactorEnrol';
import { reload, securityKeys } from './security-queries';

const codeSchema = z.object({ code: ruled(codeProblem) });

/** Turning two-factor off: a current code or a recovery code. */
function DisableForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm({ code: '' }, codeSchema);
  const send = form.onSubmit(async (values) => {
    try {
      await disableTwoFactor(codeToSend(values.code));
    } catch (error) {
      throw onCodeField(error);
    }
    await reload(securityKeys.twoFactor);
    showToast(t('security.twoFactor.turnedOff'));
    onClose();
  });
  return (
    <form id={form.formId} className="form" onSubmit={send} noValidate data-testid="tfa-disable">
      <p className="card__note">{t('security.twoFactor.offNote')}</p>
      <FormError message={form.formError} />
      <CodeField {...form.field('code')} testId="tfa-disable-code" />
      <SubmitButton busy={form.submitting}>{t('security.twoFactor.turnOff')}</SubmitButton>
      <button type="button" className="button button--secondary" onClick={onClose}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

/** On or off, and the codes left; the button that changes it. */
function TwoFactorStatus({
  state,
  offline,
  onChange,
}: {
  state: TwoFactorState;
  offline: boolean;
  onChange: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <p className="security-status">
        <span
          className={`security-badge${state.enabled ? ' security-badge--on' : ''}`}
          data-testid="tfa-state"
          data-enabled={state.enabled}
        >
          {state.enabled ? t('security.twoFactor.on') : t('security.twoFactor.off')}
        </span>
      </p>
      <p className="card__note">
        {state.enabled
          ? t('security.twoFactor.onNote', { count: state.recoveryCodesLeft })
          : t('security.twoFactor.about')}
      </p>
      <button
        type="button"
        className={`button button--block${state.enabled ? ' button--secondary-danger' : ''}`}
        data-testid={state.enabled ? 'tfa-turn-off' : 'tfa-turn-on'}
        disabled={offline}
        onClick={onChange}
      >
        {state.enabled ? t('security.twoFactor.turnOff') : t('security.twoFactor.turnOn')}
      </button>
    </>
  );
}

/** The two-factor card: its state, and turning it on (with the recovery codes) or off. */
export function TwoFactorSection({ offline }: { offline: boolean }) {
  const { t } = useTranslation();
  const state = useApiQuery(securityKeys.twoFactor, () => getTwoFactor(), { perVisit: true });
  // The open flow, kept while the state reloads under it (the codes outlive "on").
  const [open, setOpen] = useState<'enrol' | 'disable' | null>(null);
  const close = () => setOpen(null);
  return (
    <section className="card security-card" aria-labelledby="tfa-title" data-testid="two-factor">
      <h2 id="tfa-title" className="card__title">
        {t('security.twoFactor.title')}
      </h2>
      {open === 'enrol' && <TwoFactorEnrol onClose={close} />}
      {open === 'disable' && <DisableForm onClose={close} />}
      {open === null && state.status === 'loading' && <LoadingState />}
      {open === null && state.status === 'error' && (
        <ErrorState error={state.error} onRetry={state.retry} />
      )}
      {open === null && state.status === 'ready' && (
        <TwoFactorStatus
          state={state.data}
          offline={offline}
          onChange={() => setOpen(state.data.enabled ? 'disable' : 'enrol')}
        />
      )}
    </section>
  );
}
