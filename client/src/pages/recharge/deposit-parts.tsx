import type { TFunction } from 'i18next';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { CoinNetwork, DepositChannel, DepositChannelId } from '@shared/wallet/model';
import { ApiError } from '@client/api/client';
import { createDeposit, getDepositChannels, type DepositFields } from '@client/api/wallet';
import { PageHeader } from '@client/components/PageHeader';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import type { PickedImage } from '@client/components/wallet/ImagePicker';
import { newIdempotencyKey } from '@client/components/wallet/money';
import { depositChannelInfo, walletPaths } from '@client/components/wallet/routes';
import { useMoney } from '@client/components/wallet/useMoney';
import { showToast, useApiQuery } from '@client/state';

/**
 * Loads the receiving details of one channel (the platform's bank account, the user's own USDT
 * address), with the page's loading and error states. `title` replaces the channel's page title
 * (the USDT claim form).
 */
export function ChannelPage({
  channel,
  title,
  children,
}: {
  channel: DepositChannelId;
  title?: string;
  children: (details: DepositChannel) => ReactNode;
}) {
  const { t } = useTranslation();
  const channels = useApiQuery(['me', 'deposit-channels'], () => getDepositChannels());
  const details =
    channels.status === 'ready' ? channels.data.find((c) => c.channel === channel) : undefined;
  return (
    <>
      <PageHeader title={title ?? t(depositChannelInfo[channel].page)} back>
        <Link className="section__link" to={walletPaths.deposits}>
          {t('wallet.deposit.records')}
        </Link>
      </PageHeader>
      {channels.status === 'loading' ? (
        <LoadingState />
      ) : channels.status === 'error' ? (
        <ErrorState error={channels.error} onRetry={channels.retry} />
      ) : details ? (
        children(details)
      ) : (
        <p className="state">{t('wallet.deposit.channelClosed')}</p>
      )}
    </>
  );
}

/**
 * The amount handed over by the bank transfer's amount step (`?amount=` in minor units), as the
 * text of the entry field: whole currency units, or nothing.
 */
export function useAmountParam(): string {
  const [params] = useSearchParams();
  const raw = params.get('amount');
  if (!raw || !/^\d{1,15}$/.test(raw)) return '';
  const minor = Number(raw);
  return minor % 100 === 0 ? String(minor / 100) : '';
}

/** The channel's limits under the amount field: "Min 10.00 USDT, max 1,000,000.00 USDT". */
export function CreditNote({ channel }: { channel: DepositChannel }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <p className="field__hint num" data-testid="credit-note">
      {t('wallet.deposit.limits', { min: money.money(channel.min), max: money.money(channel.max) })}
    </p>
  );
}

/**
 * Sends a deposit with upload progress. One Idempotency-Key per filled-in form: a retry after a
 * lost answer replays the first deposit; a refusal (4xx, nothing stored) gets a fresh key. Once
 * sent: `onDone`, by default the deposit details in place of the form.
 */
export function useDepositSubmit(onDone?: () => void) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [key, setKey] = useState(newIdempotencyKey);
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);

  /** `onSent` runs once the deposit is stored, before the page moves on (a draft's clearing). */
  const submit = async (
    fields: DepositFields,
    screenshot: PickedImage | null,
    onSent?: () => void,
  ) => {
    setProgress({ sent: 0, total: 0 });
    try {
      await createDeposit(fields, screenshot?.blob ?? null, key, {
        onProgress: (sent, total) => setProgress({ sent, total }),
      });
    } catch (err) {
      if (err instanceof ApiError && err.status >= 400 && err.status < 500)
        setKey(newIdempotencyKey());
      throw err;
    } finally {
      setProgress(null);
    }
    onSent?.();
    showToast(t('wallet.deposit.submitted'));
    if (onDone) onDone();
    else void navigate(walletPaths.deposits, { replace: true });
  };
  return { submit, progress };
}

/**
 * The rejected deposit this form submits again (`?resubmitOf=<id>`, with the old deposit's
 * fields in the navigation state to pre-fill the form), or null for a new deposit.
 */
export interface Resubmission {
  id: string;
  payerBank?: string;
  payerCard?: string;
  payerName?: string;
  remark?: string;
  /** A USDT claim's transaction id. */
  txId?: string;
}
export function useResubmission(): Resubmission | null {
  const [params] = useSearchParams();
  const state = useLocation().state as { resubmit?: Resubmission } | null;
  const id = params.get('resubmitOf');
  if (!id || !/^\d{1,16}$/.test(id)) return null;
  return state?.resubmit?.id === id ? state.resubmit : { id };
}

/** Says that the form corrects a rejected deposit. */
export function ResubmitNote() {
  const { t } = useTranslation();
  const again = useResubmission();
  if (!again) return null;
  return (
    <p className="card__note" data-testid="resubmit-note">
      {t('wallet.deposit.resubmitting', { id: again.id })}
    </p>
  );
}

/** When the deposit is expected to be credited (shared/src/wallet/model.ts, depositArrival). */
export function ArrivalNote({ channel }: { channel: DepositChannel }) {
  const { t } = useTranslation();
  return (
    <p className="card__note" data-testid="arrival">
      {arrivalText(t, channel)}
    </p>
  );
}

export function arrivalText(t: TFunction, channel: DepositChannel): string {
  return channel.arrival.confirmations
    ? t('wallet.deposit.arrivalCoin', {
        confirmations: channel.arrival.confirmations,
        minutes: channel.arrival.withinMinutes,
      })
    : t('wallet.deposit.arrivalBank', { minutes: channel.arrival.withinMinutes });
}

/** Send only on the chosen network: a callout, since coins sent elsewhere are lost. */
export function NetworkWarning({ network }: { network: CoinNetwork }) {
  const { t } = useTranslation();
  return (
    <p className="callout callout--warning" role="note" data-testid="network-warning">
      <span className="callout__icon" aria-hidden="true">
        ⚠
      </span>
      <span>{t('wallet.deposit.networkWarning', { network })}</span>
    </p>
  );
}

/** The receiving details are the development placeholders: say so, plainly. */
export function DemoNote({ what }: { what: 'address' | 'account' }) {
  const { t } = useTranslation();
  return (
    <p className="callout callout--warning" role="note" data-testid="demo-note">
      <span className="callout__icon" aria-hidden="true">
        ⚠
      </span>
      <span>
        {t(what === 'address' ? 'wallet.deposit.demoAddress' : 'wallet.deposit.demoAccount')}
      </span>
    </p>
  );
}
