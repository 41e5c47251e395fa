import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { kycBody, type KycState } from '@shared/kyc';
import type { KycStatus } from '@shared/accounts';
import { getKyc, submitKyc } from '@client/api/kyc';
import { useFormat } from '@client/i18n/useFormat';
import { PageHeader } from '@client/components/PageHeader';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import type { MessageKey, Rule } from '@client/components/form/validation';
import { CountrySelect } from '@client/components/wallet/CountrySelect';
import { ImagePicker, type PickedImage } from '@client/components/wallet/ImagePicker';
import { msg } from '@client/components/wallet/rules';
import { required } from '@client/components/form/validation';
import { StatusTag, type Tone } from '@client/components/wallet/StatusTag';
import { UploadProgress } from '@client/components/wallet/UploadProgress';
import { queryKeys, refreshUser, showToast, useApiQuery } from '@client/state';
import '@client/components/form/form.css';
import '@client/components/wallet/wallet.css';
import '@client/components/wallet/records.css';

type Field = 'name' | 'idNumber' | 'nationality' | 'front' | 'back';

const nameRule: Rule<Field> = (value) => {
  const trimmed = value.trim();
  return (
    required(value) ?? (trimmed.length < 2 || trimmed.length > 50 ? msg('kyc.rules.name') : null)
  );
};

/** The server's ID number rule (shared/src/kyc.ts), which depends on the nationality. */
const idNumberRule: Rule<Field> = (value, values) => {
  const blank = required(value);
  if (blank) return blank;
  const parsed = kycBody.safeParse({
    name: 'ok',
    nationality: values.nationality || 'US',
    idNumber: value,
  });
  const bad = !parsed.success && parsed.error.issues.some((i) => i.path[0] === 'idNumber');
  if (!bad) return null;
  return msg(values.nationality === 'CN' ? 'kyc.rules.idCn' : 'kyc.rules.idOther');
};

const photoRule = (value: string): MessageKey | null => (value ? null : msg('kyc.rules.photo'));

/** ID numbers are letters and digits: anything else is dropped, letters are capitalised. */
const idInput = (raw: string) =>
  raw
    .replace(/[^0-9a-z]/gi, '')
    .toUpperCase()
    .slice(0, 30);

const tone: Record<KycStatus, Tone> = {
  none: 'pending',
  pending: 'pending',
  verified: 'good',
  rejected: 'bad',
};

function KycForm({ onSubmitted }: { onSubmitted: (state: KycState) => void }) {
  const { t } = useTranslation();
  const [photos, setPhotos] = useState<{ front: PickedImage | null; back: PickedImage | null }>({
    front: null,
    back: null,
  });
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const form = useForm<Field>(
    { name: '', idNumber: '', nationality: '', front: '', back: '' },
    {
      name: nameRule,
      idNumber: idNumberRule,
      nationality: required,
      front: photoRule,
      back: photoRule,
    },
  );

  const send = form.onSubmit(async (v) => {
    if (!photos.front || !photos.back) return;
    setProgress({ sent: 0, total: 0 });
    try {
      const state = await submitKyc(
        { name: v.name.trim(), idNumber: v.idNumber.trim(), nationality: v.nationality },
        { front: photos.front.blob, back: photos.back.blob },
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
      value={photos[side]}
      error={form.errors[side] ?? null}
      disabled={form.submitting}
      onChange={(picked) => {
        setPhotos((p) => ({ ...p, [side]: picked }));
        form.field(side).onValue('chosen');
      }}
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
        maxLength={50}
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
        maxLength={30}
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
