import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { DepositChannelId } from '@shared/wallet/model';
import { ChannelPage } from './deposit-parts';
import { UsdtAddressScreen } from './usdt-address';
import { UsdtClaimForm } from './usdt-claim';

/**
 * A USDT channel's page: the user's own address and their incoming transfers; with `?claim=1`
 * the claim of a transfer that did not arrive (components/wallet/routes.ts, usdtClaimPath).
 */
function UsdtPage({ channel }: { channel: Exclude<DepositChannelId, 'bank'> }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const claim = params.get('claim') === '1';
  return (
    <ChannelPage channel={channel} title={claim ? t('wallet.deposit.claimTitle') : undefined}>
      {(details) =>
        details.channel !== 'bank' &&
        (claim ? <UsdtClaimForm details={details} /> : <UsdtAddressScreen details={details} />)
      }
    </ChannelPage>
  );
}

/** /pages/recharge/recharge-usdt-trc20 */
export function RechargeTrc20Page() {
  return <UsdtPage channel="usdt-trc20" />;
}

/** /pages/recharge/recharge-usdt-erc20 */
export function RechargeErc20Page() {
  return <UsdtPage channel="usdt-erc20" />;
}
