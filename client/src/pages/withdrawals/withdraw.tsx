import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { sanitizeAmountInput } from '@shared/amount-input';
import type { WithdrawalAccount, WithdrawalRules } from '@shared/wallet';
import { getWithdrawalRules, listWithdrawalAccounts } from '@client/api/wallet';
import { messageText } from '@client/components/error-text';
import { PageHeader } from '@client/components/PageHeader';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import type { MessageKey } from '@client/components/form/validation';
import { AccountLabel } from '@client/components/wallet/AccountLabel';
import { TradePasswordField } from '@client/components/wallet/TradePasswordField';
import { walletPaths } from '@client/components/wallet/routes';
import { useMoney } from '@client/components/wallet/useMoney';
import { useApiQuery } from '@client/state';
import { useWithdrawForm } from './useWithdrawForm';
import { WithdrawQuote } from './WithdrawQuote';
import '@client/components/form/form.css';
import '@client/components/wallet/wallet.css';

function KycLink() {
  const { t } = useTranslation();
  return (
    <Link to={walletPaths.verify} data-testid="kyc-link">
      {t('wallet.withdraw.goVerify')}
    </Link>
  );
}

/** The bound accounts to withdraw to, one radio each, and the message when none is chosen. */
function AccountChoice({
  accounts,
  value,
  error,
  onValue,
}: {
  accounts: WithdrawalAccount[];
  value: string;
  error: MessageKey | null;
  onValue: (id: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="choice-list" aria-describedby={error ? 'account-error' : undefined}>
      <legend className="card__title">{t('wallet.withdraw.method')}</legend>
      {accounts.map((a) => (
        <label key={a.id} className="choice">
          <input
            type="radio"
            name="accountId"
            value={a.id}
            data-testid={`account-option-${a.id}`}
            checked={value === a.id}
            aria-invalid={error ? true : undefined}
            onChange={() => onValue(a.id)}
          />
          <span className="choice__text">
            <span className="choice__title">
              {t(a.type === 'bank' ? 'wallet.account.bankCard' : 'wallet.account.coinAddress')}
            </span>
            <span className="choice__sub">
              <AccountLabel account={a} withType={false} />
            </span>
          </span>
        </label>
      ))}
      {error && (
        <p className="field__error" id="account-error">
          {messageText(t, error)}
        </p>
      )}
    </fieldset>
  );
}

function WithdrawForm({
  accounts,
  rules: limits,
}: {
  accounts: WithdrawalAccount[];
  rules: WithdrawalRules;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const { form, summary, max, send, fillAll } = useWithdrawForm(accounts, limits);
  const account = form.field('accountId');
  const amount = form.field('amount');

  return (
    <form id={form.formId} className="wallet-page" onSubmit={send} noValidate>
      <FormError message={form.formError} />
      {form.formError === 'errors.KYC_REQUIRED' && (
        <p className="notice" data-testid="kyc-required">
          {t('wallet.withdraw.kycExplained')} <KycLink />
        </p>
      )}
      {limits.requiresKyc &&
        summary &&
        !summary.verified &&
        form.formError !== 'errors.KYC_REQUIRED' && (
          <p className="notice" data-testid="kyc-notice">
            {t('wallet.withdraw.kycExplained')} <KycLink />
          </p>
        )}
      <AccountChoice
        accounts={accounts}
        value={account.value}
        error={account.error}
        onValue={account.onValue}
      />
      <div className="form card">
        <TextField
          {...amount}
          label={t('wallet.withdraw.amount', { currency: money.currency })}
          testId="amount"
          inputMode="decimal"
          autoComplete="off"
          filter={(raw) => sanitizeAmountInput(raw, max)}
          hint={t('wallet.withdraw.limits', {
            min: money.money(limits.min),
            max: money.money(limits.max),
          })}
        />
        <div className="figure-row">
          <span className="card__note num" data-testid="withdraw-available">
            {t('wallet.withdraw.available', {
              amount: summary ? money.money(summary.available) : '--',
            })}
          </span>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={fillAll}
            disabled={!summary}
          >
            {t('wallet.withdraw.all')}
          </button>
        </div>
        <WithdrawQuote
          input={amount.value}
          rules={limits}
          account={accounts.find((a) => a.id === account.value)}
        />
        <TradePasswordField {...form.field('tradePassword')} />
        <p className="card__note">{t('wallet.withdraw.holdNote')}</p>
      </div>
      <SubmitButton busy={form.submitting}>{t('wallet.withdraw.submit')}</SubmitButton>
      <Link className="section__link" to={walletPaths.withdrawals} data-testid="withdrawal-records">
        {t('pages.withdrawList')}
      </Link>
    </form>
  );
}

/**
 * /pages/withdraw-money/withdraw-money: a bound account, the amount (the spec's amount rule and
 * the server's limits) and the transaction password. The amount is held at once.
 */
export function WithdrawPage() {
  const { t } = useTranslation();
  const data = useApiQuery(
    ['me', 'withdraw-form'],
    () => Promise.all([listWithdrawalAccounts(), getWithdrawalRules()]),
    { perVisit: true },
  );
  return (
    <>
      <PageHeader title={t('pages.withdraw')} back />
      {data.status === 'loading' ? (
        <LoadingState />
      ) : data.status === 'error' ? (
        <ErrorState error={data.error} onRetry={data.retry} />
      ) : data.data[0].length === 0 ? (
        <div className="wallet-page">
          <p className="state" data-testid="not-bound">
            {t('wallet.withdraw.notBound')}
          </p>
          <Link
            className="button button--block"
            to={walletPaths.accounts}
            data-testid="bind-account"
          >
            {t('wallet.withdraw.bindNow')}
          </Link>
        </div>
      ) : (
        <WithdrawForm accounts={data.data[0]} rules={data.data[1]} />
      )}
    </>
  );
}
