import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { SavingsOverview } from '@shared/savings/model';
import { advanceTestClock, getTestClock } from '@client/api/savings';
import { errorText } from '@client/components/error-text';
import { ChevronIcon } from '@client/components/icons';
import { PageHeader } from '@client/components/PageHeader';
import { ErrorState, LoadingState } from '@client/components/StateViews';
import { showToast, useAccountSummary, useAppInfo, useSavings } from '@client/state';
import { TransferForm } from './TransferForm';
import { useSavingsFormat } from './savings-format';
import '@client/components/form/form.css';
import './savings.css';
import { paths } from '@client/app/route-table';

function Figures({ overview }: { overview: SavingsOverview }) {
  const { t } = useTranslation();
  const format = useSavingsFormat();
  const figure = (label: string, value: string, testId: string) => (
    <div className="savings-figure">
      <dt>{label}</dt>
      <dd className="num" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
  return (
    <section className="savings-card" aria-labelledby="savings-total-label">
      <p id="savings-total-label" className="savings-card__label">
        {t('savings.total')}
      </p>
      <p className="savings-card__total num" data-testid="savings-total">
        {format.money(overview.total)}
      </p>
      <dl className="savings-card__grid">
        {figure(t('savings.confirmed'), format.money(overview.confirmed), 'savings-confirmed')}
        {figure(t('savings.pending'), format.money(overview.pending), 'savings-pending')}
        {figure(
          t('savings.yesterdayIncome'),
          format.money(overview.yesterdayIncome),
          'savings-yesterday-income',
        )}
        {figure(
          t('savings.totalIncome'),
          format.money(overview.totalIncome),
          'savings-total-income',
        )}
        {figure(t('savings.annualRate'), format.rate(overview.annualRate), 'savings-rate')}
      </dl>
    </section>
  );
}

/** Only on a server started with TEST_CLOCK=1: lets a browser journey reach the next cut-off. */
function TestClockControl({ onMoved }: { onMoved: () => void }) {
  const { t } = useTranslation();
  const format = useSavingsFormat();
  const [busy, setBusy] = useState(false);
  const advance = async () => {
    setBusy(true);
    try {
      const clock = await getTestClock();
      const moved = await advanceTestClock(clock.nextCutoff - clock.now + 1000);
      showToast(t('savings.testClock.moved', { time: format.dateTime(moved.now) }));
      onMoved();
    } catch (err) {
      showToast(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="savings-test-clock" aria-label={t('savings.testClock.title')}>
      <p>{t('savings.testClock.title')}</p>
      <button
        type="button"
        className="button button--secondary"
        data-testid="advance-clock"
        disabled={busy}
        onClick={() => void advance()}
      >
        {t('savings.testClock.advance')}
      </button>
    </section>
  );
}

/**
 * /pages/money/money (a tab): the savings balance (Yu'ebao). Total, confirmed and pending shares,
 * yesterday's and total income, the rate; transfers in and out with today's remaining counts;
 * links to the details and the rules.
 */
export function SavingsPage() {
  const { t } = useTranslation();
  const savings = useSavings();
  const summary = useAccountSummary();
  const info = useAppInfo();
  const { overview } = savings;
  const reload = () => {
    savings.reload();
    summary.retry();
  };

  return (
    <>
      <PageHeader title={t('pages.money')} />
      {overview ? (
        <>
          <Figures overview={overview} />
          {overview.total === 0 && overview.totalIncome === 0 ? (
            <p className="page-intro" data-testid="savings-empty">
              {t('savings.empty')}
            </p>
          ) : (
            overview.pending > 0 && <p className="page-intro">{t('savings.pendingNote')}</p>
          )}
          {savings.status === 'error' && (
            <p className="page-intro" role="status">
              {errorText(t, savings.error)}
            </p>
          )}
          <TransferForm
            overview={overview}
            available={summary.summary?.available ?? null}
            onDone={reload}
          />
        </>
      ) : savings.status === 'error' ? (
        <ErrorState error={savings.error} onRetry={savings.reload} />
      ) : (
        <LoadingState />
      )}
      {info?.testClock && <TestClockControl onMoved={reload} />}
      <nav className="savings-links" aria-label={t('savings.moreLabel')}>
        <ul>
          <li>
            <Link
              to={paths.savingsRecords}
              className="savings-links__row"
              data-testid="savings-records-link"
            >
              <span>{t('pages.particulars')}</span>
              <ChevronIcon className="savings-links__chevron" />
            </Link>
          </li>
          <li>
            <Link
              to={paths.savingsRules}
              className="savings-links__row"
              data-testid="savings-rules-link"
            >
              <span>{t('pages.savingsRules')}</span>
              <ChevronIcon className="savings-links__chevron" />
            </Link>
          </li>
        </ul>
      </nav>
    </>
  );
}
