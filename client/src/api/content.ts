import type {
  ContentPage,
  HomeContent,
  Message,
  NewsItem,
  NewsSummary,
  PageSlug,
} from '@shared/content/model';
import type { Page } from '@shared/wallet/model';
import * as content from '@shared/content/routes';
import { languageOf } from '@shared/languages';
import { call } from './client';

/** Content and system messages (API.md, "Identity, savings, content"). */

export function getHomeContent(lang: string, signal?: AbortSignal): Promise<HomeContent> {
  return call(content.home, { query: { lang: languageOf(lang) } }, { signal });
}

export function getNews(
  lang: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<NewsSummary>> {
  return call(
    content.news,
    { query: { lang: languageOf(lang), cursor: cursor ?? undefined } },
    { signal },
  );
}

export function getNewsItem(id: string, lang: string, signal?: AbortSignal): Promise<NewsItem> {
  return call(content.newsItem, { params: { id }, query: { lang: languageOf(lang) } }, { signal });
}

export function getContentPage(
  slug: PageSlug,
  lang: string,
  signal?: AbortSignal,
): Promise<ContentPage> {
  return call(content.page, { params: { slug }, query: { lang: languageOf(lang) } }, { signal });
}

export function getMessages(cursor: string | null, signal?: AbortSignal): Promise<Page<Message>> {
  return call(content.messages, { query: { cursor: cursor ?? undefined } }, { signal });
}

export async function getUnreadCount(signal?: AbortSignal): Promise<number> {
  return (await call(content.unreadCount, {}, { signal })).count;
}

export function markMessageRead(id: string): Promise<void> {
  return call(content.readMessage, { params: { id } });
}

export function markAllMessagesRead(): Promise<void> {
  return call(content.readAllMessages, {});
}
