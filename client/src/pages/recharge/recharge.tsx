import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { depositChannels, type DepositChannelId } from '@shared/wallet/model';
import { getDepositChannels } from '@client/api/wallet';
import { PageHeader } from '@client/components/PageHeader';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { depositChannelInfo, walletPaths } from '@client/components/wallet/routes';
import { useMoney } from '@client/components/wallet/useMoney';
import { useApiQuery } from '@client/state';
import '@client/components/wallet/wallet.css';
import { arrivalText } from './deposit-parts';

/**
 * /pages/recharge/recharge: choose a deposit channel (bank card, USDT-TRC20, USDT-ERC20). A bank
 * transfer goes on to the amount step (/pages/transfer/transfer), then the platform's account; a
 * USDT channel straight to the user's own address, where there is no amount to give.
 */
export function RechargePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const channels = useApiQuery(['me', 'deposit-channels'], () => getDepositChannels());
  const [chosen, setChosen] = useState<DepositChannelId | null>(null);

  // "Next" stays disabled, and says why, until a channel is chosen.
  const next = (event: FormEvent) => {
    event.preventDefault();
    if (chosen === 'bank') void navigate(`${walletPaths.transfer}?channel=bank`);
    else if (chosen) void navigate(depositChannelInfo[chosen].path);
  };

  return (
    <>
      <PageHeader title={t('pages.recharge')} back>
        <Link className="section__link" to={walletPaths.deposits} data-testid="deposit-records">
          {t('wallet.deposit.records')}
        </Link>
      </PageHeader>
      {channels.status === 'loading' ? (
        <LoadingState />
      ) : channels.status === 'error' ? (
        <ErrorState error={channels.error} onRetry={channels.retry} />
      ) : (
        <form className="wallet-page" onSubmit={next} noValidate>
          <fieldset className="choice-list">
            <legend className="card__title">{t('wallet.deposit.chooseChannel')}</legend>
            {depositChannels.map((id) => {
              const info = depositChannelInfo[id];
              const channel = channels.data.find((c) => c.channel === id);
              return (
                <label key={id} className="choice">
                  <input
                    type="radio"
                    name="channel"
                    value={id}
                    data-testid={info.testId}
                    checked={chosen === id}
                    disabled={!channel}
                    onChange={() => setChosen(id)}
                  />
                  <span className="choice__text">
                    <span className="choice__title">{t(info.title)}</span>
                    {channel && (
                      <span className="choice__sub num">
                        {t('wallet.deposit.limits', {
                          min: money.money(channel.min),
                          max: money.money(channel.max),
                        })}
                      </span>
                    )}
                    {channel && (
                      <span className="choice__sub" data-testid={`arrival-${id}`}>
                        {arrivalText(t, channel)}
                      </span>
                    )}
                  </span>
                </label>
              );
            })}
          </fieldset>
          {!chosen && (
            <p className="field__hint" id="channel-missing" data-testid="choose-hint">
              {t('wallet.deposit.selectChannel')}
            </p>
          )}
          <button
            type="submit"
            className="button button--block"
            data-testid="submit"
            disabled={!chosen}
            aria-describedby={chosen ? undefined : 'channel-missing'}
          >
            {t('wallet.next')}
          </button>
          <p className="card__note">{t('wallet.deposit.reviewNote')}</p>
        </form>
      )}
    </>
  );
}
