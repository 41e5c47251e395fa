import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { kycBody, type KycState } from '@shared/kyc/model';
import type { KycStatus } from '@shared/accounts/model';
import { getKyc, submitKyc } from '@client/api/kyc';
import { useFormat } from '@client/i18n/useFormat';
import { PageHeader } from '@client/components/PageHeader';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import {
  checked,
  isBlank,
  maxLengthOf,
  picked,
  required,
} from '@client/components/form/validation';
import { CountrySelect } from '@client/components/wallet/CountrySelect';
import { ImagePicker, type PickedImage } from '@client/components/wallet/ImagePicker';
import { msg } from '@client/components/wallet/rules';
import { StatusTag, type Tone } from '@client/components/wallet/StatusTag';
import { UploadProgress } from '@client/components/wallet/UploadProgress';
import { queryKeys, refreshUser, showToast, useApiQuery } from '@client/state';
import '@client/components/form/form.css';
import '@client/components/wallet/wallet.css';
import '@client/components/wallet/records.css';
import { z } from 'zod';

const kyc = kycBody.shape;

const schema = z
  .object({
    name: checked(kyc.name, msg('kyc.rules.name')),
    idNumber: required(),
    nationality: required(),
    front: picked<PickedImage>(msg('kyc.rules.photo')),
    back: picked<PickedImage>(msg('kyc.rules.photo')),
  })
  .superRefine((v, ctx) => {
    // The server's ID number rule (shared/src/kyc/model.ts) depends on the nationality; checked on
    // its own (a stand-in name), so a name still to fix does not hide it.
    if (isBlank(v.idNumber)) return;
    const parsed = kycBody.safeParse({
      name: 'ok',
      nationality: v.nationality || 'US',
      idNumber: v.idNumber,
    });
    if (parsed.error?.issues.some((i) => i.path[0] === 'idNumber'))
      ctx.addIssue({
        code: 'custom',
        path: ['idNumber'],
        message: msg(v.nationality === 'CN' ? 'kyc.rules.idCn' : 'kyc.rules.idOther'),
      });
  });

const idNumberMax = maxLengthOf(kyc.idNumber);

/** ID numbers are letters and digits: anything else is dropped, letters are capitalised. */
const idInput = (raw: string) =>
  raw
    .replace(/[^0-9a-z]/gi, '')
    .toUpperCase()
    .slice(0, idNumberMax);

const tone: Record<KycStatus, Tone> = {
  none: 'pending',
  pending: 'pending',
  verified: 'good',
  rejected: 'bad',
};

function KycForm({ onSubmitted }: { onSubmitted: (state: KycState) => void }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const form = useForm(
    {
      name: '',
      idNumber: '',
      nationality: '',
      front: null as PickedImage | null,
      back: null as PickedImage | null,
    },
    schema,
  );

  const send = form.onSubmit(async (v) => {
    if (!v.front || !v.back) return;
    setProgress({ sent: 0, total: 0 });
    try {
      const state = await submitKyc(
        { name: v.name.trim(), idNumber: v.idNumber.trim(), nationality: v.nationality },
        { front: v.front.blob, back: v.back.blob },
        { onProgress: (sent, total) => setProgress({ sent, total }) },
      );
      showToast(t('kyc.submitted'));
      onSubmitted(state);
    } finally {
      setProgress(null);
    }
  });

  const photo = (side: 'front' | 'back') => (
    <ImagePicker
      label={t(side === 'front' ? 'kyc.front' : 'kyc.back')}
      placeholder={t(side === 'front' ? 'kyc.frontHint' : 'kyc.backHint')}
      testId={side === 'front' ? 'kyc-front' : 'kyc-back'}
      camera
      value={form.values[side]}
      error={form.errorOf(side)}
      disabled={form.submitting}
      onChange={(image) => form.setValue(side, image)}
    />
  );

  return (
    <form id={form.formId} className="form card" onSubmit={send} noValidate>
      <FormError message={form.formError} />
      <TextField
        {...form.field('name')}
        label={t('kyc.name')}
        testId="kyc-name"
        autoComplete="name"
        maxLength={maxLengthOf(kyc.name)}
      />
      <CountrySelect
        {...form.field('nationality')}
        label={t('kyc.nationality')}
        testId="kyc-nationality"
      />
      <TextField
        {...form.field('idNumber')}
        label={t('kyc.idNumber')}
        hint={t(form.values.nationality === 'CN' ? 'kyc.rules.idCn' : 'kyc.rules.idOther')}
        testId="kyc-id-number"
        autoComplete="off"
        autoCapitalize="characters"
        maxLength={idNumberMax}
        filter={idInput}
      />
      {photo('front')}
      {photo('back')}
      <p className="card__note">{t('kyc.privacy')}</p>
      {progress && <UploadProgress sent={progress.sent} total={progress.total} />}
      <SubmitButton busy={form.submitting}>{t('kyc.submit')}</SubmitButton>
    </form>
  );
}

/**
 * /pages/verify/verify: identity verification. Not submitted → verifying → verified, or
 * rejected with the reason and the form again (DECISIONS.md, Accounts).
 */
export function VerifyPage() {
  const { t } = useTranslation();
  const format = useFormat();
  // A review arrives as a balance event (the summary's `verified` flag): query-bridge.ts reads
  // the check again then, and the page asks again when shown again.
  const kyc = useApiQuery(queryKeys.kyc, () => getKyc(), { refetchOnShow: true });

  const onSubmitted = () => {
    kyc.retry();
    void refreshUser().catch(() => undefined);
  };

  return (
    <>
      <PageHeader title={t('pages.verify')} back />
      {kyc.status === 'loading' ? (
        <LoadingState />
      ) : kyc.status === 'error' ? (
        <ErrorState error={kyc.error} onRetry={kyc.retry} />
      ) : (
        <div className="wallet-page">
          <section className="card" aria-labelledby="kyc-status-title">
            <div className="figure-row">
              <h2 id="kyc-status-title" className="card__title">
                {t('kyc.statusTitle')}
              </h2>
              <StatusTag
                tone={tone[kyc.data.status]}
                text={t(`kyc.status.${kyc.data.status}`)}
                testId="kyc-status"
              />
            </div>
            <p className="card__note">{t(`kyc.explain.${kyc.data.status}`)}</p>
            {kyc.data.submittedAt !== undefined && (
              <p className="card__note">
                {t('kyc.submittedAt', { time: format.dateTime(kyc.data.submittedAt) })}
              </p>
            )}
            {kyc.data.status === 'rejected' && kyc.data.reason && (
              <p className="record__reason" data-testid="kyc-reason">
                {t('wallet.reason', { reason: kyc.data.reason })}
              </p>
            )}
          </section>
          {(kyc.data.status === 'none' || kyc.data.status === 'rejected') && (
            <>
              {kyc.data.status === 'rejected' && <h2 className="card__title">{t('kyc.again')}</h2>}
              <KycForm onSubmitted={onSubmitted} />
            </>
          )}
        </div>
      )}
    </>
  );
}
