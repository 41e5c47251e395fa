import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { KycState } from '@shared/kyc/model';
import { StatusTag } from '@client/components/wallet/StatusTag';
import { walletPaths } from '@client/components/wallet/routes';

/**
 * The withdrawal page while the identity it needs is not verified (issue 37): the check's state
 * in the identity page's words, and no form to fill in vain. Not submitted: the way to verify.
 * Verifying: only the status (there is nothing to do but wait). Rejected: the reviewer's reason
 * and the way to submit again.
 */
export function WithdrawKyc({ kyc }: { kyc: KycState }) {
  const { t } = useTranslation();
  const status = kyc.status === 'verified' ? 'none' : kyc.status;
  const text =
    status === 'pending'
      ? t('wallet.withdraw.kycPending')
      : status === 'rejected'
        ? t('wallet.withdraw.kycRejected')
        : t('wallet.withdraw.kycExplained');
  return (
    <div className="wallet-page" data-testid="withdraw-kyc" data-status={status}>
      <section className="card" aria-labelledby="withdraw-kyc-title">
        <div className="figure-row">
          <h2 id="withdraw-kyc-title" className="card__title">
            {t('kyc.statusTitle')}
          </h2>
          <StatusTag
            tone={status === 'rejected' ? 'bad' : 'pending'}
            text={t(`kyc.status.${status}`)}
            testId="withdraw-kyc-status"
          />
        </div>
        <p className="card__note" data-testid="withdraw-kyc-text">
          {text}
        </p>
        {status === 'rejected' && kyc.reason && (
          <p className="record__reason" data-testid="withdraw-kyc-reason">
            {t('wallet.reason', { reason: kyc.reason })}
          </p>
        )}
      </section>
      {status !== 'pending' && (
        <Link className="button button--block" to={walletPaths.verify} data-testid="kyc-link">
          {status === 'rejected' ? t('kyc.again') : t('wallet.withdraw.goVerify')}
        </Link>
      )}
      <Link className="section__link" to={walletPaths.withdrawals} data-testid="withdrawal-records">
        {t('pages.withdrawList')}
      </Link>
    </div>
  );
}
