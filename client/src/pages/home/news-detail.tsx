import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '@client/api/client';
import { getNewsItem } from '@client/api/content';
import { RelativeTime } from '@client/components/content/RelativeTime';
import { RichText } from '@client/components/content/RichText';
import { PageHeader } from '@client/components/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import { useApiQuery } from '@client/state';
import '@client/components/content/content.css';

/** /pages/index/detail?id=…: one news item in the current language (or zh-CN's text). */
export function NewsDetailPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const id = useSearchParams()[0].get('id') ?? '';
  const valid = /^[1-9]\d{0,15}$/.test(id);
  const item = useApiQuery(['news', id, lang], () =>
    valid ? getNewsItem(id, lang) : Promise.reject(new ApiError('NOT_FOUND', 'no id', 404)),
  );
  return (
    <>
      <PageHeader back title={t('pages.news')} />
      {item.status === 'loading' ? (
        <LoadingState />
      ) : item.status === 'error' ? (
        item.error instanceof ApiError && item.error.status === 404 ? (
          <EmptyState />
        ) : (
          <ErrorState error={item.error} onRetry={item.retry} />
        )
      ) : (
        <article className="text-page" lang={item.data.lang}>
          <h2 className="text-page__title" data-testid="news-title">
            {item.data.title}
          </h2>
          <p className="text-page__meta" lang={lang}>
            <RelativeTime ms={item.data.publishedAt} />
          </p>
          <RichText body={item.data.body} testId="news-body" />
        </article>
      )}
    </>
  );
}
