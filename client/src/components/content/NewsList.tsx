import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { NewsSummary } from '@shared/content/model';
import type { Page } from '@shared/wallet/model';
import { getNews } from '@client/api/content';
import { usePagedQuery } from '@client/state/paged';
import { EmptyState } from '@client/components/StateViews';
import { ListEnd } from './ListEnd';
import { RelativeTime } from './RelativeTime';
import { paths } from '@client/app/route-table';

export const newsPath = (id: string) => `${paths.news}?id=${encodeURIComponent(id)}`;

/** News, newest first: the first page comes with Home's content, more on demand. */
export function NewsList({ first, lang }: { first: Page<NewsSummary>; lang: string }) {
  const { t } = useTranslation();
  const list = usePagedQuery(['news', lang], (cursor) => getNews(lang, cursor), { first });
  return (
    <section className="section" aria-labelledby="news-title">
      <div className="section__head">
        <h2 id="news-title">{t('content.home.news')}</h2>
      </div>
      {list.items.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <ul className="news-list">
            {list.items.map((n) => (
              <li key={n.id} lang={n.lang}>
                <Link to={newsPath(n.id)} className="news-row" data-testid={`news-${n.id}`}>
                  <strong className="news-row__title">{n.title}</strong>
                  <span className="news-row__summary">{n.summary}</span>
                  <span className="news-row__time" lang={lang}>
                    <RelativeTime ms={n.publishedAt} />
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <ListEnd list={list} testId="news-end" />
        </>
      )}
    </section>
  );
}
