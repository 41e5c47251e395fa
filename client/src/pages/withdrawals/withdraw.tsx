import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import {
  AMOUNT_MAX,
  amountToMinor,
  minorToDecimal,
  sanitizeAmountInput,
} from '@shared/amount-input';
import type { WithdrawalAccount, WithdrawalRules } from '@shared/wallet';
import { ApiError } from '@client/api/client';
import { createWithdrawal, getWithdrawalRules, listWithdrawalAccounts } from '@client/api/wallet';
import { messageText } from '@client/components/error-text';
import { PageHeader } from '@client/components/PageHeader';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { FormError, SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { checked, required, ruled } from '@client/components/form/validation';
import { tradePasswordSchema } from '@shared/accounts';
import { z } from 'zod';
import { AccountLabel } from '@client/components/wallet/AccountLabel';
import { TradePasswordField } from '@client/components/wallet/TradePasswordField';
import { newIdempotencyKey } from '@client/components/wallet/money';
import { walletPaths } from '@client/components/wallet/routes';
import { msg, withdrawAmountRule } from '@client/components/wallet/rules';
import { useMoney } from '@client/components/wallet/useMoney';
import { showToast, useAccountSummary, useApiQuery } from '@client/state';
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

function WithdrawForm({
  accounts,
  rules: limits,
}: {
  accounts: WithdrawalAccount[];
  rules: WithdrawalRules;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const { summary } = useAccountSummary();
  const [key, setKey] = useState(newIdempotencyKey);
  const max = Math.min(AMOUNT_MAX, Math.floor(limits.max / 100));
  const form = useForm(
    // The linked account is chosen already (the first, when there are two).
    { accountId: accounts[0]?.id ?? '', amount: '', tradePassword: '' },
    z.object({
      accountId: required(msg('wallet.rules.chooseAccount')),
      amount: ruled(withdrawAmountRule(limits)),
      tradePassword: checked(tradePasswordSchema, 'account.rules.tradePassword'),
    }),
  );
  const account = form.field('accountId');
  const amount = form.field('amount');

  const send = form.onSubmit(async (v) => {
    try {
      await createWithdrawal(
        {
          accountId: v.accountId,
          amount: amountToMinor(v.amount.trim()) ?? 0,
          tradePassword: v.tradePassword,
        },
        key,
      );
    } catch (err) {
      // A refusal stored nothing: the corrected form is a new request.
      if (err instanceof ApiError && err.status >= 400 && err.status < 500)
        setKey(newIdempotencyKey());
      throw err;
    }
    showToast(t('wallet.withdraw.succeeded'));
    void navigate(walletPaths.withdrawals, { replace: true });
  });

  const fillAll = () => {
    if (!summary) return;
    const all = Math.min(summary.available, limits.max);
    amount.onValue(sanitizeAmountInput(minorToDecimal(all), max));
  };

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
      <fieldset
        className="choice-list"
        aria-describedby={account.error ? 'account-error' : undefined}
      >
        <legend className="card__title">{t('wallet.withdraw.method')}</legend>
        {accounts.map((a) => (
          <label key={a.id} className="choice">
            <input
              type="radio"
              name="accountId"
              value={a.id}
              data-testid={`account-option-${a.id}`}
              checked={account.value === a.id}
              aria-invalid={account.error ? true : undefined}
              onChange={() => account.onValue(a.id)}
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
        {account.error && (
          <p className="field__error" id="account-error">
            {messageText(t, account.error)}
          </p>
        )}
      </fieldset>
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
