import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '@client/app/route-table';
import { formatMoney } from '@client/i18n/format';
import { useFormat } from '@client/i18n/useFormat';
import { useAccountSummary, useTradeMode } from '@client/state';
import { useOpenTradeCount } from './open-trades';
import './practice-card.css';

/**
 * The practice balance where a trader looks for money, on Home and in the personal centre
 * (issue 37: a newcomer's 10 000.00 of practice money was on no screen before the ticket). Its
 * own card, marked Practice in words and colour, with its own figures (what is in practice
 * trades, how many are open), never added to the real ones; "Trade in practice" switches the
 * mode and opens the products in one tap.
 */
export function PracticeCard({ place }: { place: 'home' | 'user' }) {
  const { t } = useTranslation();
  const { lang } = useFormat();
  const navigate = useNavigate();
  const { summary } = useAccountSummary();
  const { setMode } = useTradeMode();
  const open = useOpenTradeCount('practice');
  const practice = summary?.practice ?? null;
  const titleId = `${place}-practice-title`;
  const trade = () => {
    setMode('practice');
    void navigate(paths.product);
  };
  return (
    <section
      className={`practice-card practice-card--${place}`}
      aria-labelledby={titleId}
      data-testid="practice-card"
    >
      <div className="practice-card__main">
        <h2 id={titleId} className="practice-card__title">
          <span className="practice-card__tag">{t('orders.practice.bandLabel')}</span>
          {t('orders.practice.balance')}
        </h2>
        <p
          className="practice-card__amount num"
          data-testid="practice-available"
          data-minor={practice?.available ?? ''}
        >
          {formatMoney(practice?.available ?? null, lang)}
        </p>
        <p className="practice-card__line">
          {t('orders.practice.inTrades')}{' '}
          <span className="num" data-testid="practice-in-trades">
            {formatMoney(practice?.inOrders ?? null, lang)}
          </span>
        </p>
        {open && (
          <Link
            to={`${paths.orders}?tab=positions`}
            className="practice-card__open"
            data-testid="practice-open-trades"
            data-count={open.n}
            onClick={() => setMode('practice')}
          >
            {t('orders.practice.openTrades', { count: open.text })} ›
          </Link>
        )}
      </div>
      <button
        type="button"
        className="button practice-card__trade"
        data-testid="trade-practice"
        onClick={trade}
      >
        {t('orders.practice.trade')}
      </button>
      <p className="practice-card__note">{t('orders.practice.bandText')}</p>
    </section>
  );
}
