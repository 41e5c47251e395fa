import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cancelTwoFactorReset, getTwoFactorReset } from '@client/api/security';
import { errorText } from '@client/components/error-text';
import { useFormat } from '@client/i18n/useFormat';
import { showToast, useApiQuery } from '@client/state';
import { reload, securityKeys } from './security-queries';

/** A pending reset: when support was asked and, once approved, when two-factor turns off. */
interface PendingReset {
  requestedAt: number;
  effectiveAt: number | null;
}

/** The notice itself: what is pending and Cancel. */
export function ResetNoticeCard({
  reset,
  busy,
  offline,
  onCancel,
}: {
  reset: PendingReset;
  busy: boolean;
  offline: boolean;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <section
      className="card security-card"
      aria-labelledby="tfa-reset-title"
      role="alert"
      data-testid="tfa-reset"
    >
      <h2 id="tfa-reset-title" className="card__title">
        {t('security.reset.twoFactor.title')}
      </h2>
      <p className="notice notice--bad num" data-testid="tfa-reset-when">
        {reset.effectiveAt === null
          ? t('security.reset.twoFactor.requested', { time: format.dateTime(reset.requestedAt) })
          : t('security.reset.twoFactor.scheduled', { time: format.dateTime(reset.effectiveAt) })}
      </p>
      <p className="card__note">{t('security.reset.twoFactor.advice')}</p>
      <button
        type="button"
        className="button button--block button--secondary-danger"
        data-testid="tfa-reset-cancel"
        disabled={busy || offline}
        aria-busy={busy || undefined}
        onClick={onCancel}
      >
        {t('security.reset.twoFactor.cancel')}
      </button>
    </section>
  );
}

/**
 * A pending support reset of the user's two-factor sign-in (docs/OPERATIONS.md), shown only
 * while one is pending: whoever asked support in the owner's name is stopped here by the owner,
 * signed in (a sign-in with a code calls it off too).
 */
export function TwoFactorResetNotice({ offline }: { offline: boolean }) {
  const { t } = useTranslation();
  const pending = useApiQuery(securityKeys.twoFactorReset, () => getTwoFactorReset(), {
    perVisit: true,
    refetchOnShow: true,
  });
  const [busy, setBusy] = useState(false);
  if (pending.status !== 'ready' || !pending.data) return null;

  const cancel = async () => {
    setBusy(true);
    try {
      await cancelTwoFactorReset();
      showToast(t('security.reset.twoFactor.cancelled'));
    } catch (error) {
      showToast(errorText(t, error));
    } finally {
      await Promise.all([reload(securityKeys.twoFactorReset), reload(securityKeys.twoFactor)]);
      setBusy(false);
    }
  };
  return (
    <ResetNoticeCard
      reset={pending.data}
      busy={busy}
      offline={offline}
      onCancel={() => void cancel()}
    />
  );
}
