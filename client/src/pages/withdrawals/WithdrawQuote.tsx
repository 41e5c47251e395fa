import { useTranslation } from 'react-i18next';
import {
  withdrawalArrival,
  withdrawalFee,
  type WithdrawalAccount,
  type WithdrawalRules,
} from '@shared/wallet/model';
import { useMoney } from '@client/components/wallet/useMoney';

/**
 * What the typed amount costs and pays, before the user confirms: the fee, what arrives, and
 * when. Worked out with the server's own function and figures (GET /api/withdrawals/rules; the
 * same as GET /api/withdrawals/quote answers), so it shows at once as the user types, for an
 * amount that is valid (`amount`, minor units; null while it is not).
 */
export function WithdrawQuote({
  amount,
  rules,
  account,
}: {
  amount: number | null;
  rules: WithdrawalRules;
  account: WithdrawalAccount | undefined;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const fee =
    amount !== null ? withdrawalFee(amount, { bps: rules.feeBps, min: rules.feeMin }) : null;
  const minutes = account ? withdrawalArrival[account.type].withinMinutes : null;
  return (
    <dl className="quote" data-testid="withdraw-quote">
      <div className="quote__row">
        <dt>{t('wallet.withdraw.fee')}</dt>
        <dd className="num" data-testid="quote-fee">
          {fee === null ? '--' : money.money(fee)}
        </dd>
      </div>
      <div className="quote__row quote__row--total">
        <dt>{t('wallet.withdraw.receive')}</dt>
        <dd className="num" data-testid="quote-receive">
          {fee === null || amount === null ? '--' : money.money(amount - fee)}
        </dd>
      </div>
      {minutes !== null && (
        <div className="quote__row">
          <dt>{t('wallet.withdraw.arrival')}</dt>
          <dd data-testid="quote-arrival">
            {minutes % 60 === 0
              ? t('wallet.withdraw.arrivalHours', { hours: minutes / 60 })
              : t('wallet.withdraw.arrivalMinutes', { minutes })}
          </dd>
        </div>
      )}
    </dl>
  );
}
