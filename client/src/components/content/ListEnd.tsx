import { useTranslation } from 'react-i18next';
import { errorText } from '@client/components/error-text';
import type { Paged } from '@client/state/paged';

/** Under a list: "load more", its progress or error, or "no more" at the end (seed spec §8). */
export function ListEnd({
  list,
  testId,
}: {
  list: Pick<Paged<unknown>, 'loadingMore' | 'moreError' | 'hasMore' | 'loadMore'>;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="list-end" data-testid={testId}>
      {list.loadingMore ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> {t('common.loading')}
        </p>
      ) : list.moreError ? (
        <>
          <p role="alert">{errorText(t, list.moreError)}</p>
          <button type="button" className="button button--secondary" onClick={list.loadMore}>
            {t('common.retry')}
          </button>
        </>
      ) : list.hasMore ? (
        <button type="button" className="button button--secondary" onClick={list.loadMore}>
          {t('content.loadMore')}
        </button>
      ) : (
        <p>{t('common.noMore')}</p>
      )}
    </div>
  );
}
