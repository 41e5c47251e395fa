import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { HomeContent } from '@shared/content/model';
import { getHomeContent } from '@client/api/content';
import { ErrorState } from '@client/components/StateViews';
import { useApiQuery, type RequestState } from '@client/state';
import { BannerCarousel } from './BannerCarousel';
import { Highlights } from './Highlights';
import { NewsList } from './NewsList';
import './content.css';
import { paths } from '@client/app/route-table';

export type HomeRequest = RequestState<HomeContent> & { retry: () => void; lang: string };

/**
 * Banners, highlights and the first news, in the current language (again on a switch). The same
 * object until the request's state changes, so Home can draw it through useDeferredValue.
 */
export function useHomeContent(): HomeRequest {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const request = useApiQuery(['home', lang], () => getHomeContent(lang));
  const outcome =
    request.status === 'ready' ? request.data : request.status === 'error' ? request.error : null;
  // `retry` is kept from the first render of a state: it refetches the query, whichever render
  // made it.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => ({ ...request, lang }), [request.status, outcome, lang]);
}

/** The carousel, or a quiet placeholder of its height while it loads. */
export function HomeBanner({ home }: { home: HomeRequest }) {
  if (home.status === 'ready')
    return <BannerCarousel key={home.lang} banners={home.data.banners} />;
  return <div className="banner banner--placeholder" aria-hidden="true" />;
}

/** Platform highlights and news. */
export function HomeMore({ home }: { home: HomeRequest }) {
  switch (home.status) {
    case 'loading':
      return null;
    case 'error':
      return <ErrorState error={home.error} onRetry={home.retry} />;
    case 'ready':
      return (
        <>
          <Highlights items={home.data.highlights} />
          <NewsList
            key={home.lang}
            lang={home.lang}
            first={{ items: home.data.news, nextCursor: home.data.newsCursor }}
          />
        </>
      );
  }
}

/** The privacy policy and the other text pages, at the foot of Home. */
export function HomeFooter() {
  const { t } = useTranslation();
  return (
    <footer className="home-footer">
      <nav aria-label={t('content.home.footer')}>
        <Link to={paths.privacy} data-testid="privacy-link">
          {t('pages.privacy')}
        </Link>
        <Link to={paths.privacy2}>{t('pages.privacy2')}</Link>
        <Link to={paths.aboutUs}>{t('pages.aboutUs')}</Link>
      </nav>
    </footer>
  );
}
