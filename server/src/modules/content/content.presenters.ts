import type {
  Banner,
  BannerTheme,
  ContentPage,
  Highlight,
  HighlightIcon,
  Message,
  NewsItem,
  NewsSummary,
  OpsMessage,
  PageSlug,
} from '@shared/content/model';
import type { BannerRow, HighlightRow, NewsRow, PageRow } from './content.repo';
import type { MessageRow } from './messages.repo';
import { fallbackText } from './system-messages';

const SUMMARY_CHARS = 120;

/** The first words of a text body for a list: markers dropped, lines joined, cut at a word. */
export function summarise(body: string, max = SUMMARY_CHARS): string {
  const flat = body
    .split('\n')
    .map((line) => line.replace(/^(## |- )/, '').trim())
    .filter(Boolean)
    .join(' ')
    // No space after full-width punctuation (Chinese, Japanese).
    .replace(/([。！？：；，、）」』])\s+/g, '$1');
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  // Languages written without spaces (zh, ja, th) are cut at the limit.
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export const presentPage = (row: PageRow): ContentPage => ({
  slug: row.slug as PageSlug,
  lang: row.lang,
  title: row.title,
  body: row.body,
  updatedAt: row.updated_at.getTime(),
});

export const presentNewsSummary = (row: NewsRow): NewsSummary => ({
  id: String(row.id),
  lang: row.lang,
  title: row.title,
  summary: summarise(row.body),
  publishedAt: row.published_at.getTime(),
});

export const presentNews = (row: NewsRow): NewsItem => ({
  ...presentNewsSummary(row),
  body: row.body,
});

export const presentBanner = (row: BannerRow): Banner => ({
  id: String(row.id),
  title: row.title,
  subtitle: row.subtitle,
  link: row.link,
  theme: row.theme as BannerTheme,
});

export const presentHighlight = (row: HighlightRow): Highlight => ({
  id: String(row.id),
  icon: row.icon as HighlightIcon,
  title: row.title,
  body: row.body,
});

const textOf = (row: MessageRow) =>
  row.kind === 'custom'
    ? { title: row.title ?? '', body: row.body ?? '' }
    : fallbackText(row.kind, row.params);

export const presentMessage = (row: MessageRow): Message => ({
  id: String(row.id),
  kind: row.kind,
  params: row.params,
  ...textOf(row),
  broadcast: row.user_id === null,
  read: row.read,
  createdAt: row.created_at.getTime(),
});

export const presentOpsMessage = (row: MessageRow): OpsMessage => ({
  id: String(row.id),
  userId: row.user_id === null ? null : String(row.user_id),
  kind: row.kind,
  ...textOf(row),
  createdAt: row.created_at.getTime(),
});
