import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { amountToMinor } from '@shared/amount-input';
import type { DepositChannel } from '@shared/wallet/model';
import { getDepositChannels } from '@client/api/wallet';
import { useFormat } from '@client/i18n/useFormat';
import { PageHeader } from '@client/components/PageHeader';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { SubmitButton, TextField } from '@client/components/form/TextField';
import { useForm } from '@client/components/form/useForm';
import { ruled } from '@client/components/form/validation';
import {
  depositChannelInfo,
  isDepositChannel,
  walletPaths,
} from '@client/components/wallet/routes';
import { depositAmountRule, wholeAmountInput } from '@client/components/wallet/rules';
import { useMoney } from '@client/components/wallet/useMoney';
import { useApiQuery } from '@client/state';
import '@client/components/form/form.css';
import '@client/components/wallet/wallet.css';
import { z } from 'zod';

/** Quick amounts offered as one-tap choices (whole units of the entry). */
const presets = [100, 500, 1000, 5000];

function AmountStep({ details }: { details: DepositChannel }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const format = useFormat();
  const form = useForm({ value: '' }, z.object({ value: ruled(depositAmountRule(details)) }));

  const next = form.onSubmit((values) => {
    const minor = amountToMinor(values.value.trim());
    if (minor !== null)
      void navigate(`${depositChannelInfo[details.channel].path}?amount=${minor}`);
    return Promise.resolve();
  });

  return (
    <form id={form.formId} className="wallet-page" onSubmit={next} noValidate>
      <div className="form card">
        <p className="card__note">{t(depositChannelInfo[details.channel].title)}</p>
        <TextField
          {...form.field('value')}
          name="amount"
          label={t('wallet.deposit.amount', { currency: money.currency })}
          testId="amount"
          inputMode="numeric"
          autoComplete="off"
          filter={wholeAmountInput}
        />
        <div className="button-row" role="group" aria-label={t('wallet.deposit.quickAmounts')}>
          {presets.map((p) => (
            <button
              key={p}
              type="button"
              className="button button--secondary button--small num"
              onClick={() => form.field('value').onValue(String(p))}
            >
              {format.integer(p)}
            </button>
          ))}
        </div>
        <p className="field__hint num">
          {t('wallet.deposit.limits', {
            min: money.money(details.min),
            max: money.money(details.max),
          })}
        </p>
      </div>
      <SubmitButton busy={false}>{t('wallet.next')}</SubmitButton>
    </form>
  );
}

/**
 * /pages/transfer/transfer?channel=bank: the amount step of a bank deposit. It checks the amount
 * against the channel's limits, then opens the bank page with the amount filled in, where the
 * user sees where to send it and uploads the proof. A USDT channel has no amount to give (the
 * network says what was sent): an old link with one goes on to its address screen.
 */
export function TransferPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const channelId = params.get('channel');
  const channels = useApiQuery(['me', 'deposit-channels'], () => getDepositChannels());
  const details =
    channels.status === 'ready' && isDepositChannel(channelId)
      ? channels.data.find((c) => c.channel === channelId)
      : undefined;
  if (isDepositChannel(channelId) && channelId !== 'bank')
    return <Navigate to={depositChannelInfo[channelId].path} replace />;
  return (
    <>
      <PageHeader title={t('pages.transfer')} back />
      {!isDepositChannel(channelId) ? (
        <div className="wallet-page">
          <p className="notice" role="alert" data-testid="form-error">
            {t('wallet.deposit.selectChannel')}
          </p>
          <Link className="button button--block" to={walletPaths.recharge}>
            {t('wallet.deposit.chooseChannel')}
          </Link>
        </div>
      ) : channels.status === 'loading' ? (
        <LoadingState />
      ) : channels.status === 'error' ? (
        <ErrorState error={channels.error} onRetry={channels.retry} />
      ) : details ? (
        <AmountStep key={details.channel} details={details} />
      ) : (
        <p className="state">{t('wallet.deposit.channelClosed')}</p>
      )}
    </>
  );
}
