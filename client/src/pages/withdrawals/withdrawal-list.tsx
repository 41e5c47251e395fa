import { useTranslation } from 'react-i18next';
import { paths } from '@client/app/route-table';
import { Link } from 'react-router-dom';
import type { WithdrawalStatus } from '@shared/wallet/model';
import { listWithdrawals } from '@client/api/wallet';
import { useFormat } from '@client/i18n/useFormat';
import { PageHeader } from '@client/components/PageHeader';
import { AccountLabel } from '@client/components/wallet/AccountLabel';
import { PagedList } from '@client/components/wallet/PagedList';
import { StatusTag, type Tone } from '@client/components/wallet/StatusTag';
import { walletPaths } from '@client/components/wallet/routes';
import { useMoney } from '@client/components/wallet/useMoney';
import { queryKeys } from '@client/state';
import { usePagedQuery } from '@client/state/paged';
import '@client/components/wallet/wallet.css';

const tone: Record<WithdrawalStatus, Tone> = { pending: 'pending', success: 'good', failed: 'bad' };

/** /pages/withdraw-list/withdraw-list: withdrawals with under review / success / failed + reason. */
export function WithdrawalListPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const format = useFormat();
  // Read on every visit, again on every `balance` or `message` event (query-bridge.ts) and when
  // shown again.
  const paged = usePagedQuery(queryKeys.withdrawals, (cursor) => listWithdrawals({ cursor }), {
    refetchOnShow: true,
    perVisit: true,
  });
  return (
    <>
      <PageHeader title={t('pages.withdrawList')} back>
        <Link className="section__link" to={walletPaths.withdraw} data-testid="withdraw">
          {t('pages.withdraw')}
        </Link>
      </PageHeader>
      <div className="list-wrap">
        <PagedList
          paged={paged}
          label={t('pages.withdrawList')}
          testId="withdrawal-list"
          empty={{
            text: t('empty.records'),
            action: { label: t('empty.deposit'), to: paths.recharge },
          }}
        >
          {(w) => (
            <>
              <div className="record__line">
                <span className="record__title">
                  <AccountLabel account={w.account} />
                </span>
                <StatusTag
                  tone={tone[w.status]}
                  text={t(`wallet.withdrawalStatus.${w.status}`)}
                  testId={`withdrawal-status-${w.id}`}
                />
              </div>
              <div className="record__line">
                <span className="record__meta">{format.dateTime(w.createdAt)}</span>
                <span className="record__amount" data-testid={`withdrawal-amount-${w.id}`}>
                  {money.money(w.amount)}
                </span>
              </div>
              {w.status === 'failed' && w.reason && (
                <p className="record__reason" data-testid={`withdrawal-reason-${w.id}`}>
                  {t('wallet.reason', { reason: w.reason })}
                </p>
              )}
              {w.status === 'failed' && (
                <p className="record__meta">{t('wallet.withdraw.returned')}</p>
              )}
            </>
          )}
        </PagedList>
      </div>
    </>
  );
}
