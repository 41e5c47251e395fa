import { useTranslation } from 'react-i18next';
import type { PageSlug } from '@shared/content/model';
import { getContentPage } from '@client/api/content';
import type { PageTitleKey } from '@client/i18n/keys';
import { PageHeader } from '@client/components/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '@client/components/StateViews';
import { ApiError } from '@client/api/client';
import { useApiQuery } from '@client/state';
import { RichText } from './RichText';
import './content.css';

/**
 * A text page from the server (`GET /api/pages/:slug`) in the current language; the server
 * falls back to zh-CN, and the text is marked with the language it is really in.
 */
export function TextPage({ slug, titleKey }: { slug: PageSlug; titleKey: PageTitleKey }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const page = useApiQuery(['page', slug, lang], () => getContentPage(slug, lang));
  const title = page.status === 'ready' ? page.data.title : t(titleKey);
  return (
    <>
      <PageHeader
        back
        title={
          <span
            data-testid="page-title"
            lang={page.status === 'ready' ? page.data.lang : undefined}
          >
            {title}
          </span>
        }
      />
      {page.status === 'loading' ? (
        <LoadingState />
      ) : page.status === 'error' ? (
        page.error instanceof ApiError && page.error.status === 404 ? (
          <EmptyState />
        ) : (
          <ErrorState error={page.error} onRetry={page.retry} />
        )
      ) : (
        <article className="text-page">
          <RichText body={page.data.body} lang={page.data.lang} testId="page-body" />
        </article>
      )}
    </>
  );
}
