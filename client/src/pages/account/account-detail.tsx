import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { getWithdrawalAccount } from '@client/api/wallet';
import { useFormat } from '@client/i18n/useFormat';
import { PageHeader } from '@client/components/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import { countryName } from '@client/components/wallet/countries';
import { ServiceLink } from '@client/components/wallet/ServiceLink';
import { bankAccountForm } from '@shared/wallet/bank-account';
import { groupedDigits } from '@client/components/wallet/money';
import { accountNumberLabel } from '@client/components/wallet/rules';
import { useApiQuery } from '@client/state';
import { AccountHoldOf } from './AccountHold';
import '@client/components/wallet/wallet.css';

function Row({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  const { t } = useTranslation();
  const blank = value === undefined || value === null || value === '';
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId} className={blank ? 'kv__empty' : undefined}>
        {blank ? t('wallet.account.emptyValue') : value}
      </dd>
    </>
  );
}

/** /pages/account/account-detail?id=…: one bound account; blank fields say so. */
export function AccountDetailPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const valid = /^[1-9]\d{0,15}$/.test(id);
  const account = useApiQuery(
    ['me', 'withdrawal-account', id],
    () => (valid ? getWithdrawalAccount(id) : Promise.resolve(null)),
    { perVisit: true },
  );
  return (
    <>
      <PageHeader title={t('pages.accountDetail')} back />
      {account.status === 'loading' ? (
        <LoadingState />
      ) : account.status === 'error' ? (
        <ErrorState error={account.error} onRetry={account.retry} />
      ) : !account.data ? (
        <EmptyState />
      ) : (
        <div className="wallet-page">
          <section className="card">
            <dl className="kv">
              {account.data.type === 'bank' ? (
                <>
                  <Row
                    label={t('wallet.account.type')}
                    value={t('wallet.account.bankCard')}
                    testId="detail-type"
                  />
                  <Row
                    label={t('wallet.fields.holderName')}
                    value={account.data.holderName}
                    testId="detail-holder-name"
                  />
                  <Row
                    label={t('wallet.fields.nationality')}
                    value={
                      account.data.nationality && countryName(account.data.nationality, format.lang)
                    }
                    testId="detail-nationality"
                  />
                  <Row
                    label={t('wallet.fields.bankName')}
                    value={account.data.bankName}
                    testId="detail-bank-name"
                  />
                  {account.data.branch && (
                    <Row
                      label={t('wallet.fields.branch')}
                      value={account.data.branch}
                      testId="detail-branch"
                    />
                  )}
                  <Row
                    label={t(accountNumberLabel[bankAccountForm(account.data.nationality ?? '')])}
                    value={groupedDigits(account.data.cardNumber)}
                    testId="detail-card-number"
                  />
                  <Row
                    label={t('wallet.fields.bankAddress')}
                    value={account.data.bankAddress}
                    testId="detail-bank-address"
                  />
                </>
              ) : (
                <>
                  <Row
                    label={t('wallet.account.type')}
                    value={t('wallet.account.coinAddress')}
                    testId="detail-type"
                  />
                  <Row
                    label={t('wallet.fields.network')}
                    value={`USDT-${account.data.network}`}
                    testId="detail-network"
                  />
                  <Row
                    label={t('wallet.fields.address')}
                    value={account.data.address}
                    testId="detail-address"
                  />
                </>
              )}
              <Row
                label={t('wallet.account.boundAt')}
                value={format.dateTime(account.data.createdAt)}
                testId="detail-bound-at"
              />
            </dl>
            <AccountHoldOf account={account.data} />
          </section>
          <p className="notice">
            {t('wallet.account.serviceRule')} <ServiceLink />
          </p>
        </div>
      )}
    </>
  );
}
