import { useTranslation } from 'react-i18next';
import type { WithdrawalAccount } from '@shared/wallet/model';
import { maskTail } from './money';

/** A bound account in one line: "Bank card · Demo Bank 6222 •••• 5678" or "USDT-TRC20 · T9yD •••• Xk2". */
export function AccountLabel({
  account: a,
  withType = true,
}: {
  account: WithdrawalAccount;
  /** Leave the kind out where a heading already names it. */
  withType?: boolean;
}) {
  const { t } = useTranslation();
  return a.type === 'bank' ? (
    <>
      {withType && `${t('wallet.account.bankCard')} · `}
      {a.bankName} <span className="num nowrap">{maskTail(a.cardNumber)}</span>
    </>
  ) : (
    <>
      {withType && `${t('wallet.account.coinAddress')} · `}USDT-{a.network}{' '}
      <span className="num nowrap">{maskTail(a.address, 6)}</span>
    </>
  );
}
