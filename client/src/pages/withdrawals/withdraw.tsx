import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { cleanAmountInput } from '@shared/amount-input';
import type { KycState } from '@shared/kyc/model';
import type { WithdrawalAccount, WithdrawalRules } from '@shared/wallet/model';
import { getKyc } from '@client/api/kyc';
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
import { queryKeys, useApiQuery } from '@client/state';
import { TwoFactorCodeField } from '@client/components/form/TwoFactorCodeField';
import { AccountHold, useHoldLeft } from '@client/pages/account/AccountHold';
import { holdHours } from '@client/pages/account/account-hold';
import { useWithdrawForm } from './useWithdrawForm';
import { WithdrawKyc } from './WithdrawKyc';
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

/**
 * One account to withdraw to. While its hold is on (a newly linked account) it says when it takes
 * withdrawals; the countdown goes by itself when the hold ends. It is not chosen by default, and
 * a withdrawal to it is refused with the reason (ACCOUNT_ON_HOLD, under the accounts): the server
 * decides on the platform clock, which the countdown only estimates.
 */
function AccountOption({
  account,
  checked,
  invalid,
  onValue,
}: {
  account: WithdrawalAccount;
  checked: boolean;
  invalid: boolean;
  onValue: (id: string) => void;
}) {
  const { t } = useTranslation();
  const left = useHoldLeft(account.usableAt);
  const held = left > 0;
  return (
    <label className={`choice${held ? ' choice--held' : ''}`}>
      <input
        type="radio"
        name="accountId"
        value={account.id}
        data-testid={`account-option-${account.id}`}
        checked={checked}
        aria-invalid={invalid ? true : undefined}
        onChange={() => onValue(account.id)}
      />
      <span className="choice__text">
        <span className="choice__title">
          {t(account.type === 'bank' ? 'wallet.account.bankCard' : 'wallet.account.coinAddress')}
        </span>
        <span className="choice__sub">
          <AccountLabel account={account} withType={false} />
        </span>
        <AccountHold id={account.id} left={left} />
      </span>
    </label>
  );
}

/** The bound accounts to withdraw to, one radio each, the hold's rule, and what is wrong. */
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
    <fieldset
      className="choice-list"
      aria-describedby={error ? 'account-error hold-rule' : 'hold-rule'}
    >
      <legend className="card__title">{t('wallet.withdraw.method')}</legend>
      {accounts.map((a) => (
        <AccountOption
          key={a.id}
          account={a}
          checked={value === a.id}
          invalid={error !== null}
          onValue={onValue}
        />
      ))}
      <p className="card__note" id="hold-rule" data-testid="hold-rule">
        {t('wallet.withdraw.holdRule', { hours: holdHours(accounts) })}
      </p>
      {error && (
        <p className="field__error" id="account-error" data-testid="account-error">
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
  const { form, summary, valid, problem, send, fillAll, withCode } = useWithdrawForm(
    accounts,
    limits,
  );
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
          filter={cleanAmountInput}
          errorText={problem}
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
          amount={valid}
          rules={limits}
          account={accounts.find((a) => a.id === account.value)}
        />
        <TradePasswordField {...form.field('tradePassword')} />
        {withCode && <TwoFactorCodeField {...form.field('code')} />}
        <p className="card__note">{t('wallet.withdraw.holdNote')}</p>
      </div>
      {/* An amount wrong as typed says why under its field; the button waits for a right one. */}
      <SubmitButton busy={form.submitting} disabled={problem !== null}>
        {t('wallet.withdraw.submit')}
      </SubmitButton>
      <Link className="section__link" to={walletPaths.withdrawals} data-testid="withdrawal-records">
        {t('pages.withdrawList')}
      </Link>
    </form>
  );
}

/** What the page shows once its data is in: the identity first, then the account, then the form. */
function WithdrawBody({
  accounts,
  rules,
  kyc,
}: {
  accounts: WithdrawalAccount[];
  rules: WithdrawalRules;
  kyc: KycState;
}) {
  const { t } = useTranslation();
  // A withdrawal needing a verified identity is refused without one: no form to fill in vain.
  if (rules.requiresKyc && kyc.status !== 'verified') return <WithdrawKyc kyc={kyc} />;
  if (accounts.length === 0)
    return (
      <div className="wallet-page">
        <p className="state" data-testid="not-bound">
          {t('wallet.withdraw.notBound')}
        </p>
        <Link className="button button--block" to={walletPaths.accounts} data-testid="bind-account">
          {t('wallet.withdraw.bindNow')}
        </Link>
      </div>
    );
  return <WithdrawForm accounts={accounts} rules={rules} />;
}

/**
 * /pages/withdraw-money/withdraw-money: the identity check's state while it is not verified (and
 * withdrawals need it), else a bound account, the amount (checked as typed against the server's
 * limits and the balance) and the transaction password. The amount is held at once.
 */
export function WithdrawPage() {
  const { t } = useTranslation();
  const data = useApiQuery(
    ['me', 'withdraw-form'],
    () => Promise.all([listWithdrawalAccounts(), getWithdrawalRules()]),
    { perVisit: true },
  );
  // The same query as the identity page: a review's result reaches both (query-bridge.ts).
  const kyc = useApiQuery(queryKeys.kyc, () => getKyc(), { refetchOnShow: true });
  return (
    <>
      <PageHeader title={t('pages.withdraw')} back />
      {data.status === 'loading' || kyc.status === 'loading' ? (
        <LoadingState />
      ) : data.status === 'error' ? (
        <ErrorState error={data.error} onRetry={data.retry} />
      ) : kyc.status === 'error' ? (
        <ErrorState error={kyc.error} onRetry={kyc.retry} />
      ) : (
        <WithdrawBody accounts={data.data[0]} rules={data.data[1]} kyc={kyc.data} />
      )}
    </>
  );
}
