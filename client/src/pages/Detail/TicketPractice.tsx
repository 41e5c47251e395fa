import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resetPractice } from '@client/api/account';
import { ConfirmDialog } from '@client/components/ConfirmDialog';
import { DepositLink, PracticeBand, TradeModeSwitch } from '@client/components/orders/TradeMode';
import { errorText } from '@client/components/error-text';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { showToast } from '@client/state';

/**
 * The ticket's mode, over its working part: the switch, the practice band with its reset
 * button, and the hint a newcomer (practice) or an empty real balance needs.
 */
export function TicketModeHints({
  practice,
  newcomer,
  available,
  onReset,
}: {
  practice: boolean;
  newcomer: boolean;
  available: number | null;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  return (
    <>
      <TradeModeSwitch place="ticket" />
      {practice && (
        <PracticeBand testId="ticket-practice-band">
          <button
            type="button"
            className="practice-reset"
            data-testid="practice-reset"
            onClick={onReset}
          >
            {t('orders.practice.reset')}
          </button>
        </PracticeBand>
      )}
      {practice && newcomer && (
        <div className="mode-hint" data-testid="newcomer-hint">
          <p>{t('orders.practice.newcomerHint')}</p>
          <DepositLink />
        </div>
      )}
      {!practice && available === 0 && (
        <div className="mode-hint" role="status" data-testid="deposit-needed">
          <p>{t('orders.practice.depositNeeded', { amount: formatMoney(0, lang) })}</p>
          <DepositLink />
        </div>
      )}
    </>
  );
}

/** "Reset the practice balance?": on OK the balance goes back to `resetTo`; a toast says so. */
export function PracticeResetDialog({
  resetTo,
  onClose,
}: {
  resetTo: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const [busy, setBusy] = useState(false);
  const money = (minor: number | null) => formatMoney(minor, lang);

  const reset = async () => {
    setBusy(true);
    try {
      const done = await resetPractice();
      showToast(t('orders.practice.resetDone', { amount: money(done.practiceAvailable) }));
    } catch (error) {
      showToast(errorText(t, error));
    } finally {
      setBusy(false);
      onClose();
    }
  };

  return (
    <ConfirmDialog
      title={t('orders.practice.reset')}
      message={t('orders.practice.resetConfirm', { amount: money(resetTo) })}
      busy={busy}
      onConfirm={() => void reset()}
      onCancel={onClose}
    />
  );
}
