import { z } from 'zod';
import * as content from './values';
import { decimal, each, id, money, ms, text } from '../contract/primitives';

export const newsSummaryDto = z
  .object({
    id,
    lang: text,
    title: text,
    summary: text.describe('the start of the body, for lists'),
    publishedAt: ms,
  })
  .meta({ id: 'NewsSummary' });
export const messageKind = z.enum([...content.systemMessageKinds, 'custom']);
export const banner = z.object({
  id,
  ...each(text, 'title', 'subtitle'),
  link: text
    .nullable()
    .describe('an in-app route (`/pages/...`), or null for a banner that only informs'),
  theme: z.enum(content.bannerThemes),
});
export const highlight = z.object({
  id,
  icon: z.enum(content.highlightIcons),
  title: text,
  body: text,
});
export const contentPageDto = z
  .object({
    slug: z.enum(content.pageSlugs),
    lang: text.describe(
      'the language the text is in: the one asked for, else zh-CN, else any there is',
    ),
    title: text,
    body: text.describe(
      'plain text: paragraphs separated by a blank line, `## ` starts a heading line and `- ` a list item',
    ),
    updatedAt: ms,
  })
  .meta({ id: 'ContentPage' });
export const newsItemDto = newsSummaryDto.extend({ body: text }).meta({ id: 'NewsItem' });
export const homeContentDto = z
  .object({
    banners: z.array(banner),
    highlights: z.array(highlight),
    news: z.array(newsSummaryDto),
    newsCursor: text
      .nullable()
      .describe('the cursor to go on with beyond `news`; null when there is no more news'),
  })
  .meta({ id: 'HomeContent' });
export const messageDto = z
  .object({
    id,
    kind: messageKind,
    params: z.object({
      amount: money
        .optional()
        .describe("minor units: a deposit's, a withdrawal's, an order's stake"),
      payout: money.optional().describe("a settled order's payout"),
      product: text.optional().describe("a settled order's product id"),
      reason: text.optional().describe("a review's reason, or a void order's reason code"),
      ref: text.optional().describe('the deposit, withdrawal or order the message is about'),
      price: decimal.optional().describe("a fired price alert's tick price"),
      threshold: decimal.optional().describe("a fired price alert's threshold"),
      direction: z.enum(['above', 'below']).optional().describe("a fired price alert's direction"),
      tick: z.int().optional().describe('the sequence number of the tick a price alert fired on'),
      at: ms.optional().describe('the time of that tick'),
      device: text
        .optional()
        .describe('a security message: the device and browser, as the user agent names them'),
      phrase: text
        .optional()
        .describe("a security message: the user's anti-phishing phrase when it was written"),
      which: z
        .enum(['login', 'trade'])
        .optional()
        .describe('a password change: the login or the transaction password'),
    }),
    // The operator's text for `custom`; for the other kinds a zh-CN rendering, for readers that do
    // not know the kind (the client words known kinds itself).
    ...each(text, 'title', 'body'),
    broadcast: z.boolean().describe('sent to every user rather than to this one'),
    read: z.boolean(),
    createdAt: ms,
  })
  .meta({ id: 'Message' });
export const opsMessageDto = z
  .object({
    id,
    userId: id.nullable(),
    kind: messageKind,
    ...each(text, 'title', 'body'),
    createdAt: ms,
  })
  .meta({ id: 'OpsMessage' });
