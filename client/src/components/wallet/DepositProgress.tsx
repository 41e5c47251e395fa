import { useTranslation } from 'react-i18next';
import type { Deposit } from '@shared/wallet/model';
import { confirmationsOf } from './deposit-status';
import './picker.css';
import './records.css';

/**
 * "Confirming 3/12" with a bar, under a USDT transfer the network is still confirming. Updated in
 * place by the `deposit` events; the text is a live region so a screen reader hears it progress.
 */
export function DepositProgress({
  deposit,
  required,
  testId,
}: {
  deposit: Deposit;
  /** The channel's configured confirmations, when the deposit does not carry them. */
  required?: number;
  testId: string;
}) {
  const { t } = useTranslation();
  const c = deposit.status === 'confirming' ? confirmationsOf(deposit, required) : null;
  if (!c) return null;
  const text = t('wallet.deposit.confirmingProgress', { done: c.done, required: c.required });
  return (
    <div className="upload-progress deposit-progress">
      <progress
        className="upload-progress__bar"
        max={c.required}
        value={c.done}
        aria-label={text}
      />
      <span className="upload-progress__text num" aria-live="polite" data-testid={testId}>
        {text}
      </span>
    </div>
  );
}
