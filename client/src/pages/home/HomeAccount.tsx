import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '@client/app/route-table';
import { useOpenTradeCount } from '@client/components/orders/open-trades';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { useAccountSummary, useTradeMode } from '@client/state';
import './home.css';

/**
 * "Open real trades (n)", linking to the Orders page's Open tab in Real, above the real balance
 * card: it counts real orders only (issue 37: it counted the current mode's, practice beside
 * real money). The practice card beside it has its own count.
 */
export function OpenTradesPill() {
  const { t } = useTranslation();
  const { setMode } = useTradeMode();
  const open = useOpenTradeCount('real');
  if (!open) return null;
  return (
    <Link
      to={`${paths.orders}?tab=positions`}
      className="open-trades-pill"
      data-testid="open-trades-pill"
      data-count={open.n}
      onClick={() => setMode('real')}
    >
      <span className="open-trades-pill__dot" aria-hidden="true" />
      {t('content.home.openTrades', { count: open.text })}
    </Link>
  );
}

function Figure({ label, value, testId }: { label: string; value: number | null; testId: string }) {
  const { lang } = useFormat();
  return (
    <div className="balance-card__figure">
      <dt>{label}</dt>
      <dd className="num" data-testid={testId} data-minor={value ?? ''}>
        {formatMoney(value, lang)}
      </dd>
    </div>
  );
}

/**
 * A signed-in trader's real money at a glance (the account summary), with Deposit and Withdraw.
 * What pending withdrawals hold shows while there is some (it left Available when asked for).
 */
export function BalanceCard() {
  const { t } = useTranslation();
  const { summary, status, retry } = useAccountSummary();
  return (
    <section className="balance-card" aria-labelledby="balance-title" data-testid="balance-card">
      <h2 id="balance-title" className="balance-card__title">
        {t('content.home.balanceTitle')}
      </h2>
      <dl className="balance-card__figures">
        <Figure
          label={t('content.home.available')}
          value={summary?.available ?? null}
          testId="balance-available"
        />
        <Figure
          label={t('content.home.inTrades')}
          value={summary?.inOrders ?? null}
          testId="balance-in-trades"
        />
        <Figure
          label={t('content.home.savings')}
          value={summary?.savings ?? null}
          testId="balance-savings"
        />
        {summary !== null && summary.withdrawHold > 0 && (
          <Figure
            label={t('content.home.withdrawing')}
            value={summary.withdrawHold}
            testId="balance-withdrawing"
          />
        )}
      </dl>
      {status === 'error' && (
        <button type="button" className="balance-card__retry" onClick={retry}>
          {t('common.retry')}
        </button>
      )}
      <div className="balance-card__actions">
        <Link to={paths.recharge} className="button" data-testid="home-deposit">
          {t('content.home.deposit')}
        </Link>
        <Link to={paths.withdraw} className="button button--secondary" data-testid="home-withdraw">
          {t('content.home.withdraw')}
        </Link>
      </div>
    </section>
  );
}

/** Sign up and Log in in Home's header, for a guest. */
export function GuestActions() {
  const { t } = useTranslation();
  return (
    <span className="home-guest">
      <Link to={paths.registerCheck} className="home-guest__link" data-testid="home-sign-up">
        {t('content.home.signUp')}
      </Link>
      <Link
        to={paths.login}
        className="home-guest__link home-guest__link--primary"
        data-testid="home-log-in"
      >
        {t('content.home.logIn')}
      </Link>
    </span>
  );
}
