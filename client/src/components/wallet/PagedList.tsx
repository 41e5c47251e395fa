import { useEffect, useEffectEvent, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  EmptyState,
  ErrorState,
  LoadingState,
  type EmptyAction,
} from '@client/components/StateViews';
import { errorText } from '@client/components/error-text';
import type { Paged, Row } from '@client/state/paged';
import './records.css';

/**
 * A paged list with its states: loading, error with retry, "no data" when empty, and at the end
 * "no more" (seed spec §8). The next page loads when the end comes into view, or on the button.
 */
export function PagedList<T extends Row>({
  paged,
  label,
  testId,
  empty,
  children,
}: {
  paged: Paged<T>;
  label: string;
  testId: string;
  /** The empty state's text and its one action. */
  empty?: { text: string; action?: EmptyAction };
  children: (item: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasMore, loadingMore, moreError, loadMore } = paged;
  const wantMore = hasMore && !loadingMore && !moreError;
  const onVisible = useEffectEvent(loadMore);

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !wantMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) onVisible();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [wantMore, paged.status]);

  if (paged.status === 'loading') return <LoadingState />;
  if (paged.status === 'error') return <ErrorState error={paged.error} onRetry={paged.retry} />;
  if (paged.items.length === 0) return <EmptyState text={empty?.text} action={empty?.action} />;
  return (
    <>
      <ul className="record-list" aria-label={label} data-testid={testId}>
        {paged.items.map((item) => (
          <li key={item.id} className="record">
            {children(item)}
          </li>
        ))}
      </ul>
      <div ref={sentinel} className="list-end" data-testid={`${testId}-end`}>
        {loadingMore ? (
          <p className="state" role="status">
            <span className="spinner" aria-hidden="true" />
            {t('common.loading')}
          </p>
        ) : moreError ? (
          <>
            <p>{errorText(t, moreError)}</p>
            <button type="button" className="button button--secondary" onClick={loadMore}>
              {t('common.retry')}
            </button>
          </>
        ) : hasMore ? (
          <button type="button" className="button button--secondary" onClick={loadMore}>
            {t('wallet.loadMore')}
          </button>
        ) : (
          <p>{t('common.noMore')}</p>
        )}
      </div>
    </>
  );
}
