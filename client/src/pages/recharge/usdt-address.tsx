import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { DepositChannel } from '@shared/wallet/model';
import { CopyButton } from '@client/components/wallet/CopyButton';
import { QrCode } from '@client/components/wallet/QrCode';
import { rateShown } from '@client/components/wallet/rules';
import { usdtClaimPath } from '@client/components/wallet/routes';
import { useMoney } from '@client/components/wallet/useMoney';
import { useAccountSummary } from '@client/state';
import { arrivalText, DemoNote, NetworkWarning } from './deposit-parts';
import { IncomingTransfers } from './usdt-incoming';
import '@client/components/wallet/wallet.css';
import './usdt.css';

export type CoinChannel = Exclude<DepositChannel, { channel: 'bank' }>;

/**
 * The available balance, on the screen a transfer is credited from: it rises by itself (the
 * `balance` event) when a transfer below is credited.
 */
function BalanceRow() {
  const { t } = useTranslation();
  const money = useMoney();
  const summary = useAccountSummary().summary;
  return (
    <p className="card figure-row usdt-balance">
      <span className="card__note">{t('wallet.summary.available')}</span>
      <span>
        <strong className="num" data-testid="deposit-balance">
          {summary ? money.plain(summary.available) : '--'}
        </strong>{' '}
        <span className="card__note">{money.currency}</span>
      </span>
    </p>
  );
}

/** The user's own address on the channel's network: QR code, text, copy, and what to know. */
function AddressCard({ details }: { details: CoinChannel }) {
  const { t } = useTranslation();
  const money = useMoney();
  const title = t('wallet.deposit.address', { network: details.network });
  const rate = rateShown(details.rate, money.currency);
  return (
    <section className="card" aria-labelledby="address-title">
      <h2 id="address-title" className="card__title">
        {title}
      </h2>
      {details.demo && <DemoNote what="address" />}
      <QrCode text={details.address} label={title} />
      <p className="address" data-testid="deposit-address">
        {details.address}
      </p>
      <div className="address-actions">
        <CopyButton
          text={details.address}
          testId="copy-address"
          block
          label={t('wallet.copyLabel', { what: title })}
        />
      </div>
      <NetworkWarning network={details.network} />
      <dl className="quote usdt-facts">
        <div className="quote__row">
          <dt>{t('wallet.deposit.minimum')}</dt>
          <dd className="num" data-testid="deposit-min">
            {money.money(details.min)}
          </dd>
        </div>
        {details.arrival.confirmations !== undefined && (
          <div className="quote__row">
            <dt>{t('wallet.deposit.confirmationsNeeded')}</dt>
            <dd className="num" data-testid="deposit-confirmations-needed">
              {details.arrival.confirmations}
            </dd>
          </div>
        )}
        {rate && (
          <div className="quote__row">
            <dt>{t('wallet.deposit.rate')}</dt>
            <dd className="num" data-testid="usdt-rate">
              {t('wallet.deposit.rateCredited', { rate, currency: money.currency })}
            </dd>
          </div>
        )}
      </dl>
      <p className="card__note usdt-arrival" data-testid="arrival">
        {arrivalText(t, details)}
      </p>
    </section>
  );
}

/**
 * The USDT deposit screen: nothing to fill in. The user sends to their own address; the network's
 * transfers to it appear below as they are seen, confirm, and are credited by themselves. A
 * transfer that does not appear can be claimed by its transaction id.
 */
export function UsdtAddressScreen({ details }: { details: CoinChannel }) {
  const { t } = useTranslation();
  return (
    <div className="wallet-page">
      <BalanceRow />
      <AddressCard details={details} />
      <IncomingTransfers details={details} />
      <Link
        className="button button--secondary button--block usdt-claim-link"
        to={usdtClaimPath(details.channel)}
        state={{ fromAddress: true }}
        data-testid="claim-open"
      >
        {t('wallet.deposit.claim')}
      </Link>
    </div>
  );
}
