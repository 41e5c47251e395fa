import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { tradeModes, type TradeMode } from '@shared/orders/model';
import { useTradeMode } from '@client/state';
import './trade-mode.css';
import { paths } from '@client/app/route-table';

export const DEPOSIT_PATH = paths.recharge;

/**
 * The Real / Practice switch (issue 19). One choice for every trading screen: the ticket's switch
 * and the header's are the same setting. `place` names its test ids (header-mode-practice, …).
 */
export function TradeModeSwitch({ place }: { place: 'header' | 'ticket' }) {
  const { t } = useTranslation();
  const { mode, setMode } = useTradeMode();
  const prefix = place === 'header' ? 'header-mode' : 'mode';
  return (
    <div
      className={`mode-switch mode-switch--${place}`}
      role="group"
      aria-label={t('orders.practice.switchLabel')}
    >
      {tradeModes.map((m: TradeMode) => (
        <button
          key={m}
          type="button"
          className={`mode-switch__option mode-switch__option--${m}`}
          aria-pressed={m === mode}
          data-testid={`${prefix}-${m}`}
          onClick={() => setMode(m)}
        >
          {t(`orders.practice.${m}`)}
        </button>
      ))}
    </div>
  );
}

/**
 * The practice mark: a coloured band with a label and a line of text, on every screen that shows
 * practice money, so it can never be taken for real money (the label says it in words, not only
 * in colour).
 */
export function PracticeBand({
  children,
  testId = 'practice-band',
}: {
  children?: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="practice-band" role="note" data-testid={testId}>
      <span className="practice-band__label">{t('orders.practice.bandLabel')}</span>
      <span className="practice-band__text">{t('orders.practice.bandText')}</span>
      {children}
    </div>
  );
}

/** Where real trading starts: the deposit page. */
export function DepositLink() {
  const { t } = useTranslation();
  return (
    <Link
      className="button button--secondary deposit-link"
      to={DEPOSIT_PATH}
      data-testid="deposit-link"
    >
      {t('orders.practice.deposit')}
    </Link>
  );
}
