import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { tradePasswordSchema } from '@shared/accounts/model';
import { confirmTwoFactor, enrolTwoFactor, type TwoFactorEnrolment } from '@client/api/security';
import { FormError, SubmitButton } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { checked, ruled } from '@client/components/form/validation';
import { TradePasswordField } from '@client/components/wallet/TradePasswordField';
import { QrCode } from '@client/components/wallet/QrCode';
import { CodeField, codeProblem, codeToSend, onCodeField } from '@client/pages/login/CodeField';
import { RecoveryCodes } from './RecoveryCodes';
import { copyText, reload, securityKeys } from './security-queries';

const passwordSchema = z.object({
  tradePassword: checked(tradePasswordSchema, 'account.rules.tradePassword'),
});
const codeSchema = z.object({ code: ruled(codeProblem) });

/** The manual key in groups of four (the element's text is the key itself, for copying). */
export function SecretKey({ secret }: { secret: string }) {
  const { t } = useTranslation();
  const groups = secret.match(/.{1,4}/g) ?? [];
  return (
    <div className="tfa-key">
      <p className="card__note">{t('security.twoFactor.manualKey')}</p>
      <div className="tfa-key__row">
        <code className="tfa-key__text num" data-testid="tfa-secret" aria-label={secret}>
          {groups.map((group, i) => (
            <span key={i} className="tfa-key__group">
              {group}
            </span>
          ))}
        </code>
        <button
          type="button"
          className="button button--secondary button--small"
          data-testid="tfa-secret-copy"
          onClick={() => copyText(t, secret)}
        >
          {t('security.copy')}
        </button>
      </div>
    </div>
  );
}

/** Step 1: the transaction password, for a new secret. */
function PasswordStep({
  onEnrolled,
  onCancel,
}: {
  onEnrolled: (enrolment: TwoFactorEnrolment) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm({ tradePassword: '' }, passwordSchema);
  const send = form.onSubmit(async (values) => {
    onEnrolled(await enrolTwoFactor(values.tradePassword));
  });
  return (
    <form id={form.formId} className="form" onSubmit={send} noValidate data-testid="tfa-enrol">
      <p className="card__note">{t('security.twoFactor.passwordFirst')}</p>
      <FormError message={form.formError} />
      <TradePasswordField {...form.field('tradePassword')} />
      <SubmitButton busy={form.submitting}>{t('security.continue')}</SubmitButton>
      <button type="button" className="button button--secondary" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

/** Step 2: the app scans the QR code (or takes the key typed in) and its first code confirms. */
function ScanStep({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: TwoFactorEnrolment;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm({ code: '' }, codeSchema);
  const send = form.onSubmit(async (values) => {
    try {
      const { codes } = await confirmTwoFactor(codeToSend(values.code));
      onConfirmed(codes);
    } catch (error) {
      throw onCodeField(error);
    }
  });
  return (
    <form id={form.formId} className="form" onSubmit={send} noValidate data-testid="tfa-scan">
      <ol className="tfa-steps">
        <li>{t('security.twoFactor.stepApp')}</li>
        <li>{t('security.twoFactor.stepScan')}</li>
        <li>{t('security.twoFactor.stepCode')}</li>
      </ol>
      <QrCode text={enrolment.otpauthUri} label={t('security.twoFactor.qrLabel')} />
      <SecretKey secret={enrolment.secret} />
      <FormError message={form.formError} />
      <CodeField {...form.field('code')} testId="tfa-code" />
      <SubmitButton busy={form.submitting}>{t('security.twoFactor.confirm')}</SubmitButton>
      <button type="button" className="button button--secondary" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

type Step =
  | { kind: 'password' }
  | { kind: 'scan'; enrolment: TwoFactorEnrolment }
  | { kind: 'codes'; codes: string[] };

/** Turning two-factor on: transaction password, scan and confirm, then the recovery codes. */
export function TwoFactorEnrol({ onClose }: { onClose: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'password' });
  if (step.kind === 'password')
    return (
      <PasswordStep
        onEnrolled={(enrolment) => setStep({ kind: 'scan', enrolment })}
        onCancel={onClose}
      />
    );
  if (step.kind === 'scan')
    return (
      <ScanStep
        enrolment={step.enrolment}
        onConfirmed={(codes) => {
          setStep({ kind: 'codes', codes });
          void reload(securityKeys.twoFactor);
        }}
        onCancel={onClose}
      />
    );
  return <RecoveryCodes codes={step.codes} onDone={onClose} />;
}
