import { z } from 'zod';
import type * as dto from './answers';
import { defaultLanguage, languages } from '../languages';
import { freeText } from '../text';
import { idValue, pageQuery } from '../wallet/requests';
import { pageSlugs, bannerThemes, highlightIcons, systemMessageKinds } from './values';

export { pageSlugs, bannerThemes, highlightIcons, systemMessageKinds };

/**
 * Content (API.md "Identity, savings, content"; DECISIONS.md "Content"): text pages per language,
 * news, the Home banners and highlights, and system messages.
 */

export type PageSlug = (typeof pageSlugs)[number];

/**
 * Texts (pages, news bodies) are plain text: paragraphs separated by a blank line, `## ` starts a
 * heading line and `- ` a list item. No markup reaches the page, so nothing in them can run.
 */
export type ContentPage = z.infer<typeof dto.contentPageDto>;
export type NewsSummary = z.infer<typeof dto.newsSummaryDto>;
export type NewsItem = z.infer<typeof dto.newsItemDto>;

export type BannerTheme = (typeof bannerThemes)[number];

export type Banner = HomeContent['banners'][number];

export type HighlightIcon = (typeof highlightIcons)[number];

export type Highlight = HomeContent['highlights'][number];

/** GET /api/content/home: everything Home shows besides the live products. */
export type HomeContent = z.infer<typeof dto.homeContentDto>;

export type SystemMessageKind = (typeof systemMessageKinds)[number];
export type MessageKind = SystemMessageKind | 'custom';

export type Message = z.infer<typeof dto.messageDto>;
export type MessageParams = Message['params'];
/** What POST /api/ops/messages answers. */
export type OpsMessage = z.infer<typeof dto.opsMessageDto>;

// Request schemas.

export const langQuery = z.object({
  lang: z
    .enum(languages, { error: `lang must be one of ${languages.join(', ')}` })
    .default(defaultLanguage),
});
export const pageParams = z.object({ slug: freeText().max(40) });
export const newsListQuery = pageQuery.extend(langQuery.shape);
export const newsParams = z.object({ id: idValue });
export const messageParams = z.object({ id: idValue });
export const messageListQuery = pageQuery;

/** Titles are one line; bodies keep their line breaks (paragraphs, headings, list items). */
const text = (what: string, max: number, multiline = false) =>
  freeText({ multiline, error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} must be at most ${max} characters`);

export const opsMessageBody = z.object({
  userId: idValue.optional(),
  title: text('title', 120),
  body: text('body', 2000, true),
});
export const opsNewsBody = z.object({
  /** Adds or replaces this language's text of an existing item instead of publishing a new one. */
  newsId: idValue.optional(),
  lang: z.enum(languages, { error: `lang must be one of ${languages.join(', ')}` }),
  title: text('title', 120),
  body: text('body', 20_000, true),
});
export const opsPageBody = z.object({
  lang: z.enum(languages, { error: `lang must be one of ${languages.join(', ')}` }),
  title: text('title', 120),
  body: text('body', 20_000, true),
});

/** `PUT /api/ops/banners/:lang` and `/highlights/:lang`: the language whose set is replaced. */
export const contentLangParams = z.object({
  lang: z.enum(languages, { error: `lang must be one of ${languages.join(', ')}` }),
});
/** A link inside the app: a route of the client, optionally with a query. */
const appLink = z
  .string()
  .max(200)
  .regex(
    /^\/pages\/[A-Za-z-]+\/[A-Za-z-]+(\?[A-Za-z0-9=&_.-]*)?$/,
    'link must be an app route such as /pages/money/money',
  );
/** A language's whole banner set, in display order (empty: that language falls back to zh-CN's). */
export const opsBannersBody = z.object({
  banners: z
    .array(
      z.object({
        title: text('title', 60),
        subtitle: freeText().trim().max(120, 'subtitle must be at most 120 characters').default(''),
        link: appLink.nullable().default(null),
        theme: z.enum(bannerThemes).default('blue'),
      }),
    )
    .max(10, 'at most 10 banners'),
});
/** A language's whole highlight set, in display order (empty: falls back to zh-CN's). */
export const opsHighlightsBody = z.object({
  highlights: z
    .array(
      z.object({
        icon: z.enum(highlightIcons),
        title: text('title', 60),
        body: text('body', 300),
      }),
    )
    .max(10, 'at most 10 highlights'),
});

export type OpsMessageBody = z.infer<typeof opsMessageBody>;
export type OpsBannersBody = z.infer<typeof opsBannersBody>;
export type OpsHighlightsBody = z.infer<typeof opsHighlightsBody>;
export type OpsNewsBody = z.infer<typeof opsNewsBody>;
export type OpsPageBody = z.infer<typeof opsPageBody>;

export const isPageSlug = (slug: string): slug is PageSlug =>
  (pageSlugs as readonly string[]).includes(slug);
