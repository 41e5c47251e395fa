import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@client/app/route-table';
import type { SavingsRecord } from '@shared/savings/model';
import { isAbort } from '@client/api/client';
import { getSavingsRecords } from '@client/api/savings';
import { PageHeader } from '@client/components/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import { errorText } from '@client/components/error-text';
import { useSavingsFormat } from '@client/pages/savings/savings-format';
import '@client/pages/savings/savings.css';

interface Loaded {
  items: SavingsRecord[];
  nextCursor: string | null;
}

/** The first page on mount (and on retry), further pages on request; newest first. */
function useRecords() {
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [more, setMore] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });

  useEffect(() => {
    const controller = new AbortController();
    getSavingsRecords(null, controller.signal).then(
      (page) => {
        setLoaded(page);
        setError(null);
      },
      (err: unknown) => {
        if (!isAbort(err)) setError(err);
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const loadMore = async () => {
    if (!loaded?.nextCursor || more.busy) return;
    setMore({ busy: true, error: null });
    try {
      const page = await getSavingsRecords(loaded.nextCursor);
      setLoaded({ items: [...loaded.items, ...page.items], nextCursor: page.nextCursor });
      setMore({ busy: false, error: null });
    } catch (err) {
      setMore({ busy: false, error: err });
    }
  };
  return { loaded, error, more, loadMore, retry: () => setAttempt((n) => n + 1) };
}

function RecordRow({ record }: { record: SavingsRecord }) {
  const { t } = useTranslation();
  const format = useSavingsFormat();
  const plus = record.type !== 'out';
  return (
    <li className="savings-record" data-testid={`record-${record.id}`} data-type={record.type}>
      <div className="savings-record__what">
        <span>{t(`savings.record.${record.type}`)}</span>
        <span className="savings-record__time">
          {record.type === 'income'
            ? t('savings.record.incomeFor', { date: format.day(record.day) })
            : format.dateTime(record.createdAt)}
        </span>
      </div>
      <span
        className={`savings-record__amount num savings-record__amount--${plus ? 'plus' : 'minus'}`}
      >
        {format.money(record.amount, plus ? '+' : '-')}
      </span>
    </li>
  );
}

/** /pages/Particulars/Particulars: every savings transfer in and out and every income. */
export function SavingsRecordsPage() {
  const { t } = useTranslation();
  const { loaded, error, more, loadMore, retry } = useRecords();
  return (
    <>
      <PageHeader title={t('pages.particulars')} back />
      {loaded ? (
        loaded.items.length === 0 ? (
          <EmptyState
            text={t('savings.noRecords')}
            action={{ label: t('empty.transferIn'), to: paths.savings }}
          />
        ) : (
          <>
            <ul className="savings-records" aria-label={t('pages.particulars')}>
              {loaded.items.map((r) => (
                <RecordRow key={r.id} record={r} />
              ))}
            </ul>
            <div className="savings-more">
              {more.error ? <p role="alert">{errorText(t, more.error)}</p> : null}
              {loaded.nextCursor ? (
                <button
                  type="button"
                  className="button button--secondary"
                  disabled={more.busy}
                  onClick={() => void loadMore()}
                >
                  {more.busy ? t('common.loading') : t('savings.loadMore')}
                </button>
              ) : (
                <p className="state">{t('common.noMore')}</p>
              )}
            </div>
          </>
        )
      ) : error ? (
        <ErrorState error={error} onRetry={retry} />
      ) : (
        <LoadingState />
      )}
    </>
  );
}
