import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { walletPaths } from '@client/components/wallet/routes';
import { useMoney } from '@client/components/wallet/useMoney';
import type { SummaryState } from '@client/state';
import { placeholder } from '@client/i18n/format';

const tone = (minor: number) => (minor > 0 ? 'up' : minor < 0 ? 'down' : '');

/**
 * The personal centre's figures (DECISIONS.md, Money): total assets, available balance, account
 * and today's P&L, live from `balance` events, with the deposit and withdraw buttons.
 */
export function UserFigures({ state }: { state: SummaryState & { retry: () => void } }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { status, summary, retry } = state;
  const show = (pick: (s: NonNullable<typeof summary>) => number, signed = false) =>
    summary ? (signed ? money.signed(pick(summary)) : money.plain(pick(summary))) : placeholder;
  return (
    <section className="figures" aria-labelledby="figures-title" aria-busy={!summary || undefined}>
      <h2 id="figures-title" className="figures__label">
        {t('wallet.summary.totalAssets', { currency: money.currency })}
      </h2>
      <p className="figures__total num" data-testid="total-assets">
        {show((s) => s.totalAssets)}
      </p>
      <dl className="figures__grid">
        <div>
          <dt>{t('wallet.summary.available')}</dt>
          <dd className="num" data-testid="available-balance">
            {show((s) => s.available)}
          </dd>
        </div>
        <div>
          <dt>{t('wallet.summary.pnlTotal')}</dt>
          <dd className={`num ${summary ? tone(summary.pnlTotal) : ''}`} data-testid="pnl-total">
            {show((s) => s.pnlTotal, true)}
          </dd>
        </div>
        <div>
          <dt>{t('wallet.summary.pnlToday')}</dt>
          <dd className={`num ${summary ? tone(summary.pnlToday) : ''}`} data-testid="pnl-today">
            {show((s) => s.pnlToday, true)}
          </dd>
        </div>
      </dl>
      {status === 'error' && !summary && (
        <p className="figures__error" role="alert">
          {t('wallet.summary.failed')}{' '}
          <button type="button" className="button button--secondary button--small" onClick={retry}>
            {t('common.retry')}
          </button>
        </p>
      )}
      <div className="figures__actions">
        <Link className="button" to={walletPaths.recharge} data-testid="deposit">
          {t('wallet.summary.deposit')}
        </Link>
        <Link className="button button--secondary" to={walletPaths.withdraw} data-testid="withdraw">
          {t('wallet.summary.withdraw')}
        </Link>
      </div>
    </section>
  );
}
