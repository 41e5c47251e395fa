import { useTranslation } from 'react-i18next';
import type { Deposit } from '@shared/wallet/model';
import './records.css';

/** A link to the transaction on the network's public explorer, in a new tab. */
export function ExplorerLink({ deposit: d, testId }: { deposit: Deposit; testId: string }) {
  const { t } = useTranslation();
  if (!d.chain) return null;
  return (
    <a
      className="record__link"
      href={d.chain.explorerUrl}
      target="_blank"
      rel="noopener noreferrer"
      data-testid={testId}
    >
      {t('wallet.deposit.explorer')}
    </a>
  );
}
