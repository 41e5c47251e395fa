import type {
  ContentPage,
  HomeContent,
  Message,
  NewsItem,
  NewsSummary,
  PageSlug,
} from '@shared/content';
import type { Page } from '@shared/wallet';
import { request } from './client';

/** Content and system messages (API.md, "Identity, savings, content"). */

export function getHomeContent(lang: string, signal?: AbortSignal): Promise<HomeContent> {
  return request<HomeContent>('/content/home', { query: { lang }, signal });
}

export function getNews(
  lang: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<NewsSummary>> {
  return request<Page<NewsSummary>>('/news', { query: { lang, cursor }, signal });
}

export function getNewsItem(id: string, lang: string, signal?: AbortSignal): Promise<NewsItem> {
  return request<NewsItem>(`/news/${encodeURIComponent(id)}`, { query: { lang }, signal });
}

export function getContentPage(
  slug: PageSlug,
  lang: string,
  signal?: AbortSignal,
): Promise<ContentPage> {
  return request<ContentPage>(`/pages/${slug}`, { query: { lang }, signal });
}

export function getMessages(cursor: string | null, signal?: AbortSignal): Promise<Page<Message>> {
  return request<Page<Message>>('/messages', { query: { cursor }, signal });
}

export async function getUnreadCount(signal?: AbortSignal): Promise<number> {
  return (await request<{ count: number }>('/messages/unread-count', { signal })).count;
}

export function markMessageRead(id: string): Promise<void> {
  return request<void>(`/messages/${encodeURIComponent(id)}/read`, { method: 'POST' });
}

export function markAllMessagesRead(): Promise<void> {
  return request<void>('/messages/read-all', { method: 'POST' });
}
